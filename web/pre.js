// pre.js: the host side of the WebAssembly build's input and output
// (library.js).  In a Web Worker the page sends lines as messages (a
// string, or {end: true} for the end of input) and gets the answers as
// {out: text}, standard error as {err: line} and the exit as {exit:
// status}.  Under Node it is a program like the native one: stdin,
// stdout, stderr and the exit status.
var quintetIO = {
  chunks: [],
  ended: false,
  waiting: null,
  lastYield: 0,
  YIELD_MS: 15,
  push: function (bytes) {
    if (bytes.length) quintetIO.chunks.push(bytes);
    if (quintetIO.waiting) quintetIO.waiting();
  },
  end: function () {
    quintetIO.ended = true;
    if (quintetIO.waiting) quintetIO.waiting();
  },
};
Module['quintetIO'] = quintetIO;

if (typeof process == 'object' && typeof require == 'function' &&
    process.versions && process.versions.node) {
  // Node: read the module from disk (its fetch cannot read files).
  Module['wasmBinary'] = require('fs').readFileSync(
    require('path').join(__dirname, 'engine.wasm'));
  quintetIO.yieldNow = function (f) { setImmediate(f); };
  quintetIO.write = function (bytes) {
    var fs = require('fs'), off = 0;
    while (off < bytes.length) {
      try {
        off += fs.writeSync(1, bytes, off, bytes.length - off);
      } catch (e) {
        if (e.code !== 'EAGAIN') throw e;
      }
    }
  };
  Module['print'] = function (line) { process.stdout.write(line + '\n'); };
  Module['printErr'] = function (line) { process.stderr.write(line + '\n'); };
  process.stdin.on('data', function (b) { quintetIO.push(new Uint8Array(b)); });
  process.stdin.on('end', quintetIO.end);
} else {
  // A Web Worker.
  var decoder = new TextDecoder(), encoder = new TextEncoder();
  var channel = new MessageChannel(), resume = [];
  channel.port1.onmessage = function () { resume.shift()(); };
  quintetIO.yieldNow = function (f) {
    resume.push(f);
    channel.port2.postMessage(0);
  };
  quintetIO.write = function (bytes) {
    postMessage({out: decoder.decode(bytes)});
  };
  Module['print'] = function (line) { postMessage({out: line + '\n'}); };
  Module['printErr'] = function (line) { postMessage({err: line}); };
  Module['onExit'] = function (status) { postMessage({exit: status}); };
  onmessage = function (e) {
    if (typeof e.data == 'string') quintetIO.push(encoder.encode(e.data));
    else if (e.data && e.data.end) quintetIO.end();
  };
}
