# stall: where RDNA3 kernels wait.  `make`, `make check`, `make demo`.
CC      ?= cc
CFLAGS  ?= -O2 -g
# LLVM 22 (its MC disassembler): llvm-config-22 where Debian puts it, else llvm-config;
# LLVM_CONFIG=/path/to/llvm-config for any other.
LLVM_CONFIG ?= $(shell command -v llvm-config-22 2>/dev/null || echo llvm-config)
PREFIX  ?= /usr/local
VERSION  = 0.1

BSD_CFLAGS := $(shell pkg-config --cflags libbsd-overlay 2>/dev/null)
BSD_LIBS   := $(shell pkg-config --libs libbsd-overlay 2>/dev/null)
LLVM_INC   := $(shell $(LLVM_CONFIG) --includedir 2>/dev/null)
LLVM_LIBDIR:= $(shell $(LLVM_CONFIG) --libdir 2>/dev/null)
LLVM_LIBS  := $(shell $(LLVM_CONFIG) --libs --link-shared 2>/dev/null)

ALL_CFLAGS = -std=c11 -D_GNU_SOURCE -DSTALL_VERSION='"$(VERSION)"' -Wall -Wextra -Werror -Ilibcommon \
	$(BSD_CFLAGS) $(SQLITE_CFLAGS) -I$(LLVM_INC) $(CFLAGS)
SQLITE_CFLAGS := $(shell pkg-config --cflags sqlite3 2>/dev/null)
SQLITE_LIBS   := $(shell pkg-config --libs sqlite3 2>/dev/null || echo -lsqlite3)
MD_LIBS       := $(shell pkg-config --libs libmd 2>/dev/null || echo -lmd)
LDLIBS_BASE = $(MD_LIBS) $(BSD_LIBS) $(SQLITE_LIBS) -lz -lm
LDLIBS_CODE = -ldw -lelf -L$(LLVM_LIBDIR) -Wl,-rpath,$(LLVM_LIBDIR) $(LLVM_LIBS)

PROGS = sqtt-dump sqtt-encode sqtt-walk stall-attr stall-table stall-diff stall-budget \
	stall-annotate
BIN   = $(addprefix bin/,$(PROGS)) bin/stall bin/sqtt-capture

LIB_BASE = util cli tsv input out pickle sqtt capture rocprof rocpd rgp elfsym meta cause isa attr json profile load dispatch
LIB_PAGE = timeline tracejson html html-page report
LIB_CODE = codeobj walk rowtext dwarf codeload loops regs
LIBOBJ_BASE = $(addprefix build/,$(addsuffix .o,$(LIB_BASE)))
LIBOBJ_CODE = $(addprefix build/,$(addsuffix .o,$(LIB_CODE)))
LIBOBJ_PAGE = $(addprefix build/,$(addsuffix .o,$(LIB_PAGE)))

TEST_BIN = build/pickle_test build/codeobj_test build/cause_test build/tsv_test

all: $(BIN) $(TEST_BIN)

build/%.o: libcommon/%.c libcommon/*.h | build
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

# The page of stall-table --html, as a C string.
build/html-page.c: libcommon/html-page.html | build
	{ echo 'const char html_page[] ='; sed 's/\\/\\\\/g; s/"/\\"/g; s/?/\\?/g; s/^/"/; s/$$/\\n"/' $<; echo ';'; } > $@

build/html-page.o: build/html-page.c
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

build/cmd-%.o: cmd/%.c libcommon/*.h | build
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

bin/sqtt-dump bin/sqtt-encode bin/stall-attr bin/stall-diff bin/stall-budget: bin/%: build/cmd-%.o $(LIBOBJ_BASE) | bin
	$(CC) $(ALL_CFLAGS) -o $@ $^ $(LDLIBS_BASE)

bin/stall-table: bin/%: build/cmd-%.o $(LIBOBJ_BASE) $(LIBOBJ_PAGE) | bin
	$(CC) $(ALL_CFLAGS) -o $@ $^ $(LDLIBS_BASE)

bin/sqtt-walk bin/stall-annotate: bin/%: build/cmd-%.o $(LIBOBJ_BASE) $(LIBOBJ_CODE) | bin
	$(CC) $(ALL_CFLAGS) -o $@ $^ $(LDLIBS_BASE) $(LDLIBS_CODE)

# Test drivers of single modules (tests/t01xx, t02xx).
build/pickle_test: tests/pickle_test.c $(LIBOBJ_BASE) | build
	$(CC) $(ALL_CFLAGS) -o $@ $^ $(LDLIBS_BASE)

build/cause_test: tests/cause_test.c $(LIBOBJ_BASE) | build
	$(CC) $(ALL_CFLAGS) -o $@ $^ $(LDLIBS_BASE)

build/tsv_test: tests/tsv_test.c $(LIBOBJ_BASE) | build
	$(CC) $(ALL_CFLAGS) -o $@ $^ $(LDLIBS_BASE)

build/codeobj_test: tests/codeobj_test.c $(LIBOBJ_BASE) $(LIBOBJ_CODE) | build
	$(CC) $(ALL_CFLAGS) -o $@ $^ $(LDLIBS_BASE) $(LDLIBS_CODE)

bin/stall: bin/%: build/cmd-%.o $(LIBOBJ_BASE) $(LIBOBJ_CODE) $(LIBOBJ_PAGE) | bin
	$(CC) $(ALL_CFLAGS) -o $@ $^ $(LDLIBS_BASE) $(LDLIBS_CODE)

bin/sqtt-capture: cmd/sqtt-capture.sh Makefile | bin
	sed 's/@VERSION@/$(VERSION)/' cmd/sqtt-capture.sh > $@ && chmod +x $@

build bin:
	mkdir -p $@

# Nothing is installed when the build's needs are met (no root asked for); else the
# Debian packages missing, through apt (root or sudo).  NODEPS=1 skips the check.
deps:
	@[ "$(NODEPS)" = 1 ] || LLVM_CONFIG="$(LLVM_CONFIG)" sh scripts/install-deps.sh

check: deps
	$(MAKE) all
	./check.sh

# Sanitizer build of the same tests: make asan-check
asan-check: deps
	$(MAKE) clean
	$(MAKE) all CFLAGS="-O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all"
	ASAN_OPTIONS=detect_leaks=0 ./check.sh

demo: deps
	$(MAKE) all
	sh fixtures/demo.sh

bench: all
	sh bench/run.sh

lint-man:
	mandoc -Tlint -W warning man/*.1

clean:
	rm -rf build bin tests/out

install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1
	install -m 755 $(BIN) $(DESTDIR)$(PREFIX)/bin
	install -m 644 man/*.1 $(DESTDIR)$(PREFIX)/share/man/man1

.PHONY: all deps check asan-check demo bench lint-man clean install
