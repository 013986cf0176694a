// library.js: the input and output of the WebAssembly build's engine
// (engine_web.c), over a queue that the host fills (pre.js: a Web
// Worker's messages or Node's stdin).
mergeInto(LibraryManager.library, {
  // Takes up to n bytes of input into buf.  With wait, sleeps (Asyncify)
  // until some come or the input ends; without it, answers at once, but
  // first yields to the event loop when it has not for YIELD_MS, so that
  // the host can queue what arrived meanwhile.
  web_read__deps: ['$Asyncify'],
  web_read: function (buf, n, wait) {
    return Asyncify.handleSleep(function (wakeUp) {
      var io = Module['quintetIO'];
      var take = function () {
        if (!io.chunks.length) return io.ended ? -1 : 0;
        var c = io.chunks[0], k = Math.min(n, c.length);
        HEAPU8.set(c.subarray(0, k), buf);
        if (k < c.length) io.chunks[0] = c.subarray(k);
        else io.chunks.shift();
        return k;
      };
      if (io.chunks.length || io.ended) return wakeUp(take());
      if (wait) {
        io.waiting = function () {
          io.waiting = null;
          wakeUp(take());
        };
        return;
      }
      var now = performance.now();
      if (now - io.lastYield < io.YIELD_MS) return wakeUp(0);
      io.lastYield = now;
      io.yieldNow(function () { wakeUp(take()); });
    });
  },
  web_write: function (buf, n) {
    Module['quintetIO'].write(HEAPU8.slice(buf, buf + n));
    return n;
  },
});
