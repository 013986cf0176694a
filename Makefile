# make          builds ./engine (a C compiler and libc are all it needs)
# make check    runs every test (unit tests need Check: see README.md)
# make bench    prints the speed figures (minutes; BENCH_ARGS=--quick for
#               the default variant of each game only), the WebAssembly
#               build's too where emcc and node are installed
# make SAN=1 check   the same tests under AddressSanitizer and UBSan
# make SAN=thread check-threads   the threaded tests under ThreadSanitizer
#                    (test_ai's threads case, fuzz-thinking --threads 4)
# make install       installs the program as quintet, its manual page and
#                    protocol.md under PREFIX (default /usr/local), staged
#                    under DESTDIR when set; make uninstall removes them
# make format        formats the C files with clang-format (.clang-format)
# make format-check  fails when a C file differs from that format
# make train GAME=takebacktoe   learns the game's evaluation from self-play
#                    into games/takebacktoe_weights.c (minutes; see below;
#                    GAME=tiptoe for Tiptoe's square boards; OPTIONS=...
#                    plays its games from another set-up; any other game
#                    learns over its board's contents)
# make web          the engine in WebAssembly with the GUI's page, as static
#                    files in build/web/ (needs Emscripten; see below)
# BUILD=dir puts objects and test binaries there (default build/).

CC ?= cc
CFLAGS ?= -O2 -g
WARN = -std=c11 -D_POSIX_C_SOURCE=200809L -Wall -Wextra -Wshadow \
       -Wmissing-declarations -Wstrict-prototypes -Werror
ifeq ($(SAN),1)
BUILD ?= build-san
CFLAGS = -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer \
         -fno-sanitize-recover=all
LDFLAGS += -fsanitize=address,undefined
endif
ifeq ($(SAN),thread)
BUILD ?= build-tsan
CFLAGS = -O1 -g -fsanitize=thread -fno-omit-frame-pointer
LDFLAGS += -fsanitize=thread
endif
BUILD ?= build
# the search's threads (set threads): POSIX threads, part of libc
LDFLAGS += -pthread
ALL_CFLAGS = $(WARN) $(CFLAGS) -pthread

GAME_SRC = $(sort $(wildcard games/*.c games/ai/*.c games/util/*.c))
LIB_OBJ = $(BUILD)/engine.o $(GAME_SRC:%.c=$(BUILD)/%.o)
TEST_SRC = $(sort $(wildcard tests/test_*.c))
TESTS = $(TEST_SRC:%.c=$(BUILD)/%)
HEADERS = engine.h $(wildcard games/*.h games/ai/*.h games/util/*.h)
TEST_HEADERS = $(HEADERS) $(wildcard tests/*.h)

CHECK_CFLAGS = $(shell pkg-config --cflags check 2>/dev/null)
CHECK_LIBS = $(shell pkg-config --libs check 2>/dev/null || echo -lcheck -lsubunit -lm -lrt -pthread)

.PHONY: all check unit transcripts scripts-check bench clean need-check

all: engine

engine: $(BUILD)/engine
	cp $< $@

$(BUILD)/engine: $(BUILD)/main.o $(LIB_OBJ)
	$(CC) $(LDFLAGS) -o $@ $^

$(BUILD)/%.o: %.c $(HEADERS)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

# (Check is installed first when missing: under make -j2 a test built
# beside the install did not find check.h)
$(BUILD)/tests/%: tests/%.c $(LIB_OBJ) $(TEST_HEADERS) | need-check
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(CHECK_CFLAGS) -o $@ $< $(LIB_OBJ) $(LDFLAGS) $(CHECK_LIBS)

need-check:
	@sh scripts/tools/need-check

SCRIPT_TESTS = $(sort $(wildcard tests/check-*.sh))

check: need-check unit transcripts scripts-check

# everything make check runs, built (make -j2 build-tests: on two cores)
.PHONY: build-tests
build-tests: $(BUILD)/engine $(TESTS) $(BUILD)/scripts/solver

scripts-check: $(BUILD)/engine $(BUILD)/scripts/solver
	@set -e; for t in $(SCRIPT_TESTS); do echo "== $$t"; sh $$t $(BUILD)/engine; done

# UNIT_SKIP=test_x ...: leave those out (.ci/run runs one beside the rest)
UNIT_SKIP ?=
unit: $(TESTS)
	@set -e; for t in $(filter-out $(UNIT_SKIP:%=$(BUILD)/tests/%),$(TESTS)); \
		do echo "== $$t"; $$t; done

transcripts: $(BUILD)/engine
	@sh tests/transcripts.sh $(BUILD)/engine

# tests/bench_*.c are benchmark programs over the game interface (not tests)
BENCH_SRC = $(sort $(wildcard tests/bench_*.c))
BENCHES = $(BENCH_SRC:%.c=$(BUILD)/%)

$(BUILD)/tests/bench_%: tests/bench_%.c $(LIB_OBJ) $(HEADERS)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -o $@ $< $(LIB_OBJ) $(LDFLAGS)

bench: $(BUILD)/engine $(BENCHES)
	@python3 scripts/bench $(BENCH_ARGS) $(BUILD)/engine $(BUILD)
	@$(BUILD)/tests/bench_ai
	@if command -v $(EMCC) >/dev/null 2>&1 && command -v node >/dev/null 2>&1; \
	then $(MAKE) --no-print-directory web >/dev/null && \
		python3 scripts/bench-web $(BUILD)/engine $(WEB_DIR)/engine-node; \
	else echo "bench: no emcc or node: the WebAssembly build is not measured"; fi

# make fuzz: libFuzzer over whole sessions (tests/fuzz_engine.c, which the
# tests/test_*.c wildcard leaves out), built with clang and the sanitizers,
# run for FUZZ_SECONDS on a seed corpus of the transcript inputs, whole and
# line by line, and a short session of every game list_games names (so a
# game added to the table is fuzzed from its first moves); FUZZ_ARGS adds
# libFuzzer flags (-seed=1, -jobs=2).  Needs
# clang and libFuzzer (Debian: libclang-rt-14-dev).  A crash is written to
# $(FUZZ_DIR)/crash-*; replay it with $(FUZZ_DIR)/fuzz_engine FILE.
FUZZ_SECONDS ?= 60
FUZZ_ARGS ?=
FUZZ_CC ?= clang
FUZZ_DIR = $(BUILD)/fuzz
FUZZ_FLAGS = -O1 -g -fno-omit-frame-pointer -fno-sanitize-recover=all \
	     -fsanitize=fuzzer,address,undefined

$(FUZZ_DIR)/fuzz_engine: tests/fuzz_engine.c engine.c $(GAME_SRC) $(HEADERS)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(WARN) $(FUZZ_FLAGS) -pthread -o $@ \
		tests/fuzz_engine.c engine.c $(GAME_SRC)

# The search on several threads (set threads): test_ai's threads case
# and fuzz-thinking with threads 4 (stop, analyze and the end of input at
# random moments).  Meant for the ThreadSanitizer build: make SAN=thread
# check-threads (.ci/run).
THREADS_SECONDS ?= 30
.PHONY: check-threads
check-threads: $(BUILD)/engine $(BUILD)/tests/test_ai
	CK_RUN_CASE=threads $(BUILD)/tests/test_ai
	python3 scripts/testing/fuzz-thinking $(BUILD)/engine -t $(THREADS_SECONDS) \
		--seed 4 --threads 4

.PHONY: fuzz
fuzz: $(FUZZ_DIR)/fuzz_engine $(BUILD)/engine
	@mkdir -p $(FUZZ_DIR)/corpus $(FUZZ_DIR)/seeds
	@for g in $$($(BUILD)/engine -c list_games | sed -e 's/^= //' \
		-e '/^$$/d' | cut -d' ' -f1); do \
		printf 'newgame %s seed=1\nmoves\ncontents\nturn_info\nset playouts 20\ngenmove\nmoves\nposition\nundo\ngeometry\n' \
			"$$g" >$(FUZZ_DIR)/seeds/g-$$g; done
	@for f in tests/transcripts/*.in; do [ -f "$$f" ] && \
		cp "$$f" $(FUZZ_DIR)/seeds/t-$$(basename "$$f"); done; \
	cat tests/transcripts/*.in 2>/dev/null | sort -u | \
		awk -v d=$(FUZZ_DIR)/seeds 'NF { f = d "/l" NR; print > f; close(f) }'
	$(FUZZ_DIR)/fuzz_engine -max_total_time=$(FUZZ_SECONDS) -max_len=4096 \
		-timeout=20 -print_final_stats=1 -artifact_prefix=$(FUZZ_DIR)/ \
		$(FUZZ_ARGS) $(FUZZ_DIR)/corpus $(FUZZ_DIR)/seeds

FORMAT_SRC = $(sort $(wildcard *.[ch] games/*.[ch] games/*/*.[ch] tests/*.[ch] web/*.c \
	scripts/tools/*.c))
CLANG_FORMAT ?= clang-format

.PHONY: format format-check
format:
	$(CLANG_FORMAT) -i $(FORMAT_SRC)

format-check:
	@$(CLANG_FORMAT) --dry-run --Werror $(FORMAT_SRC) && \
		echo "format-check: $(words $(FORMAT_SRC)) files match .clang-format"

# make web: the engine built to WebAssembly by Emscripten (Debian's
# emscripten package) with the GUI's page beside it, as static files in
# $(BUILD)/web/ that any static file server serves (python3 -m http.server
# -d build/web).  The page runs the engine in a Web Worker; web/engine_web.c
# says how its input reaches it while it thinks (Asyncify), which needs a
# stack of its own for the search's deepest recursion.  Under Node,
# $(BUILD)/web/engine-node is the same module as a program on stdin and
# stdout.  make web-check runs the transcripts through it and the GUI's
# end-to-end test against a static server.  Debian's emcc runs its own
# tools under node, which looks for their modules in /usr/share/nodejs.
EMCC ?= emcc
WEB_DIR = $(BUILD)/web
WEB_FLAGS = -O3 -sASYNCIFY -sASYNCIFY_STACK_SIZE=1048576 \
	-sASYNCIFY_IMPORTS='["web_read"]' -sALLOW_MEMORY_GROWTH=1 \
	-sEXIT_RUNTIME=1 -sENVIRONMENT=web,worker,node \
	--js-library web/library.js --pre-js web/pre.js
# The GUI's page (its modules in scripts/page/), and web/quintet.js, the
# module that runs the engine in a worker for any page, with its example.
WEB_PAGE = $(WEB_DIR)/index.html $(WEB_DIR)/gui.css \
	$(patsubst scripts/%,$(WEB_DIR)/%,$(wildcard scripts/page/*.js)) \
	$(WEB_DIR)/quintet.js $(WEB_DIR)/example.html

.PHONY: web web-check
web: $(WEB_DIR)/engine.js $(WEB_DIR)/engine-node $(WEB_PAGE)

$(WEB_DIR)/engine.js: web/engine_web.c web/library.js web/pre.js engine.c \
		$(GAME_SRC) $(HEADERS)
	@mkdir -p $(dir $@)
	NODE_PATH=/usr/share/nodejs$${NODE_PATH:+:$$NODE_PATH} $(EMCC) \
		$(WARN) $(WEB_FLAGS) -o $@ web/engine_web.c engine.c $(GAME_SRC)

$(WEB_DIR)/index.html: scripts/gui.html
	@mkdir -p $(dir $@)
	sed 's|<meta charset="utf-8">|&\n<meta name="quintet-engine" content="worker">|' $< >$@

$(WEB_DIR)/%: scripts/%
	@mkdir -p $(dir $@)
	cp $< $@

$(WEB_DIR)/%: web/%
	@mkdir -p $(dir $@)
	cp $< $@

web-check: web
	@sh tests/transcripts.sh $(WEB_DIR)/engine-node
	@python3 tests/gui_e2e_test.py --static $(WEB_DIR)

PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
MAN6DIR ?= $(PREFIX)/share/man/man6
DOCDIR ?= $(PREFIX)/share/doc/quintet
INSTALL ?= install

.PHONY: install uninstall
install: $(BUILD)/engine
	$(INSTALL) -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MAN6DIR) $(DESTDIR)$(DOCDIR)
	$(INSTALL) -m 755 $(BUILD)/engine $(DESTDIR)$(BINDIR)/quintet
	sed 's|/usr/local/share/doc/quintet|$(DOCDIR)|' quintet.6 \
		>$(DESTDIR)$(MAN6DIR)/quintet.6
	chmod 644 $(DESTDIR)$(MAN6DIR)/quintet.6
	$(INSTALL) -m 644 protocol.md README.md $(DESTDIR)$(DOCDIR)/

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/quintet $(DESTDIR)$(MAN6DIR)/quintet.6 \
		$(DESTDIR)$(DOCDIR)/protocol.md $(DESTDIR)$(DOCDIR)/README.md
	-rmdir $(DESTDIR)$(DOCDIR) 2>/dev/null

clean:
	rm -rf build build-san engine

# make book: the opening book (games/ai/book_data.c), solved from scratch
# by build/scripts/solver (scripts/tools/solver.c): every tiptoe 5x5 position of
# the set-up (results only: the points only tell who won), and checkertoe
# 5x5, either player starting, through ply 4 wherever one player has
# followed the book (every position an engine playing by the book meets
# in its first three moves), through ply 6 wherever the player who starts
# has (its fourth move too), and through ply 3 whatever either played.
# It takes about seven hours on one core (docs/strength.md);
# BOOK_FLAGS=-r keeps the lines the book compiled in already holds and
# solves only new ones.  Not part of make check, which re-solves a sample
# of the book (tests/test_solve.c).
# BOOK_MB sizes the solver's table.
SOLVER = $(BUILD)/scripts/solver
BOOK_MB ?= 2048
BOOK_FLAGS ?=
BOOK_SPEC = tiptoe size=5 4/wdl \
	checkertoe first=1 5/follow checkertoe first=1 7/first \
	checkertoe first=1 4 \
	checkertoe first=2 5/follow checkertoe first=2 7/first \
	checkertoe first=2 4

$(SOLVER): scripts/tools/solver.c $(LIB_OBJ) $(HEADERS)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -o $@ $< $(LIB_OBJ) $(LDFLAGS)

.PHONY: solver book
solver: $(SOLVER)

book: $(SOLVER)
	$(SOLVER) -m $(BOOK_MB) $(BOOK_FLAGS) book games/ai/book_data.c \
		$(BOOK_SPEC)
	$(CLANG_FORMAT) -i games/ai/book_data.c

# make train GAME=takebacktoe [OPTIONS="size=6"] [CONTENTS=1]: learns the
# game's evaluation from games the player plays against itself
# (scripts/tools/train.c, games/learn.h), from the set-up OPTIONS give (the
# game's default without them), on every core, and writes
# games/GAME_weights.c (games/GAME_size6_weights.c with OPTIONS=size=6),
# compiled in like the book.  A game without features of its own
# (learn_spec), or any with CONTENTS=1, learns over the lines of its
# board's contents (games/ai/pattern.h).
# TRAIN_<game> are the settings its compiled weights were made with (the file
# records them, and make check plays their first rounds again:
# tests/test_learn.c), TRAIN_<game>_<options> those of one set-up's table
# where they differ (TRAIN_tiptoe_hex), TRAIN_DEFAULT those of a game
# without its own;
# TRAIN_FLAGS adds to them (-t THREADS).  A run saves
# $(BUILD)/train/GAME.ckpt (GAME_size6.ckpt with OPTIONS=size=6) every
# minute and, run again, goes on from it.
TRAIN = $(BUILD)/scripts/train
empty :=
space := $(empty) $(empty)
TRAIN_TAG = $(subst $(space),_,$(subst =,,$(strip $(OPTIONS))))
TRAIN_NAME = $(GAME)$(if $(TRAIN_TAG),_$(TRAIN_TAG))
TRAIN_CKPT = $(BUILD)/train/$(TRAIN_NAME).ckpt
TRAIN_OUT = games/$(TRAIN_NAME)_weights.c
TRAIN_FLAGS ?=
TRAIN_takebacktoe = -s 1 -g 256 -e 0.1 -n 3000
TRAIN_tiptoe = -s 1 -g 256 -e 0.1 -a 0.5 -n 3000
TRAIN_tiptoe_hex = -s 1 -g 64 -e 0.1 -a 0.5 -n 3200
TRAIN_DEFAULT = -s 1 -g 256 -e 0.1 -n 1000
TRAIN_SETTINGS = $(or $(TRAIN_$(TRAIN_NAME)),$(TRAIN_$(GAME)),$(TRAIN_DEFAULT))

$(TRAIN): scripts/tools/train.c $(LIB_OBJ) $(HEADERS)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -o $@ $< $(LIB_OBJ) $(LDFLAGS)

.PHONY: train
train: $(TRAIN)
	@test -n "$(GAME)" || { echo "make train GAME=name"; exit 2; }
	@mkdir -p $(BUILD)/train
	$(TRAIN) $(TRAIN_SETTINGS) $(if $(CONTENTS),-b) $(TRAIN_FLAGS) \
		-c $(TRAIN_CKPT) \
		$(GAME) "$(OPTIONS)" $(TRAIN_OUT)
	$(CLANG_FORMAT) -i $(TRAIN_OUT)
