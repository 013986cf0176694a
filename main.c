/* main.c: the engine's command line.
 *
 *   engine [-c COMMAND]... [FILE | -]...
 *
 * With no arguments the engine reads commands on standard input.  Each
 * `-c COMMAND` and each FILE runs in the order given, their answers on
 * standard output, and the engine exits after the last one; `-` among them
 * reads standard input at that point.  A `quit` ends everything. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine.h"

static const char usage[] =
	"usage: %s [-c COMMAND]... [FILE | -]...\n"
	"\n"
	"Plays five table games through a line protocol in the family of GTP\n"
	"(Go) and UCI (chess): commands on standard input, one answer each on\n"
	"standard output (\"= ...\" or \"? ...\", then an empty line).\n"
	"\n"
	"  -c COMMAND   run COMMAND (repeatable), in order with the files\n"
	"  FILE         run the commands in FILE\n"
	"  -            read standard input at this point\n"
	"  -h, --help   show this help and exit\n"
	"  --version    show the version and exit\n"
	"\n"
	"With -c or FILE the engine exits after the last of them, unless - is\n"
	"given.  Try `help` and `list_games`; the protocol is in protocol.md\n"
	"(and the manual page quintet(6)).\n";

struct source {
	const char *cmd;  /* -c COMMAND */
	const char *file; /* FILE, or "-" for standard input */
};

static const char *prog = "engine";

/* Reads the arguments into sources (argc of them at most); exits with
 * status 2 on a usage error, 0 after -h, --help or --version. */
static int parse_args(int argc, char **argv, struct source *src)
{
	int n = 0, options = 1;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (options && !strcmp(a, "--")) {
			options = 0;
		} else if (options &&
			   (!strcmp(a, "--help") || !strcmp(a, "-h"))) {
			printf(usage, prog);
			exit(0);
		} else if (options && !strcmp(a, "--version")) {
			printf("%s %s\n", ENGINE_NAME, ENGINE_VERSION);
			exit(0);
		} else if (options && !strcmp(a, "-c")) {
			if (i + 1 == argc) {
				fprintf(stderr, "%s: -c needs a command\n",
					prog);
				exit(2);
			}
			src[n++] = (struct source){argv[++i], NULL};
		} else if (options && a[0] == '-' && a[1]) {
			fprintf(stderr, "%s: unknown option %s (try --help)\n",
				prog, a);
			exit(2);
		} else {
			src[n++] = (struct source){NULL, a};
		}
	}
	return n;
}

/* Runs one -c command.  Returns 1 after quit, -1 when the answer cannot
 * be written, else 0. */
static int run_command(struct session *s, const char *cmd)
{
	struct text out;
	text_init(&out);
	size_t len = strlen(cmd);
	int too_long = len >= LINE_MAX_BYTES;
	int quit = engine_line(s, cmd, too_long ? LINE_MAX_BYTES - 1 : len,
			       too_long, &out);
	int ret = quit;
	if (out.len && fwrite(out.s, 1, out.len, stdout) != out.len)
		ret = -1;
	if (fflush(stdout) != 0)
		ret = -1;
	text_free(&out);
	return ret;
}

/* Runs the commands of a file (or standard input).  Returns as
 * engine_run, or -2 when the file cannot be opened. */
static int run_file(struct session *s, const char *name)
{
	if (!strcmp(name, "-"))
		return engine_run(s, 0, 1);
	int fd = open(name, O_RDONLY);
	if (fd < 0) {
		fprintf(stderr, "%s: %s: %s\n", prog, name, strerror(errno));
		return -2;
	}
	int ret = engine_run(s, fd, 1);
	close(fd);
	return ret;
}

int main(int argc, char **argv)
{
	if (argc > 0 && argv[0][0]) {
		const char *slash = strrchr(argv[0], '/');
		prog = slash ? slash + 1 : argv[0];
	}
	struct source *src = calloc((size_t)argc + 1, sizeof *src);
	if (!src)
		return 1;
	int n = parse_args(argc, argv, src);
	if (n == 0)
		src[n++] = (struct source){NULL, "-"};
	struct session *s = session_new();
	int status = 0;
	for (int i = 0; i < n; i++) {
		int r = src[i].cmd ? run_command(s, src[i].cmd)
				   : run_file(s, src[i].file);
		if (r == -2)
			status = 1;
		if (r == -1) {
			status = 1;
			break;
		}
		if (r == 1)
			break; /* quit */
	}
	session_free(s);
	free(src);
	return status;
}
