# stall: where AMD kernels wait (RDNA3, RDNA4, CDNA3).  `make`, `make check`, `make demo`.
CC      ?= cc
CFLAGS  ?= -O2 -g
# The programs that run the whole pipeline are optimised across modules at link time (the
# costs' stage inlined into the rows' loop, the decoder into the walk's: stall took 0.93x
# the CPU time on the bench stream).  The library's objects carry their code and GCC's
# intermediate form both (-ffat-lto-objects): every other program and test links the code
# as usual.  LTO= builds without.
LTO     ?= -flto=auto
LTO_PROGS = stall stall-annotate stall-diff stall-budget
# LLVM 22 (its MC disassembler): llvm-config-22 where Debian puts it, else llvm-config;
# LLVM_CONFIG=/path/to/llvm-config for any other.
LLVM_CONFIG ?= $(shell command -v llvm-config-22 2>/dev/null || echo llvm-config)
PREFIX  ?= /usr/local
VERSION  = 0.1

BSD_CFLAGS := $(shell pkg-config --cflags libbsd-overlay 2>/dev/null)
BSD_LIBS   := $(shell pkg-config --libs libbsd-overlay 2>/dev/null)
LLVM_INC   := $(shell $(LLVM_CONFIG) --includedir 2>/dev/null)
LLVM_LIBDIR:= $(shell $(LLVM_CONFIG) --libdir 2>/dev/null)
# Only the disassembler's components, linked statically where the LLVM install has their
# archives (Debian's llvm-22-dev does): the programs then map a few MB of LLVM, not all of
# libLLVM.so.  z3 and libxml2 are left out of the system libraries: these components use
# neither.  Else libLLVM.so.
LLVM_COMPONENTS = amdgpudisassembler amdgpuinfo amdgpudesc mcdisassembler
LLVM_STATIC := $(shell $(LLVM_CONFIG) --link-static --libs $(LLVM_COMPONENTS) 2>/dev/null)
ifneq ($(strip $(LLVM_STATIC)),)
LLVM_LIBS  := $(LLVM_STATIC) $(filter-out %libz3.so -lxml2,$(shell $(LLVM_CONFIG) --link-static --system-libs 2>/dev/null)) -lstdc++
else
LLVM_LIBS  := $(shell $(LLVM_CONFIG) --libs --link-shared 2>/dev/null)
endif

# The library, in layers: each folder uses only the ones before it (scripts/layers.sh
# checks the includes), and is one archive.
LAYERS = base gen trace capture code analysis report pipeline
# (a layer may keep modules in folders of its own: gen/gfx11/, each on the include path)
LAYER_INC = $(addprefix -I,$(sort $(shell find $(addprefix libcommon/,$(LAYERS)) -type d)))

ALL_CFLAGS = -std=c11 -D_GNU_SOURCE -DSTALL_VERSION='"$(VERSION)"' -Wall -Wextra -Werror $(LAYER_INC) \
	$(BSD_CFLAGS) $(SQLITE_CFLAGS) -I$(LLVM_INC) $(CFLAGS)
DEPFLAGS = -MMD -MP
# rocpd databases (libsqlite3); MD5 for RGP files (libmd, before libbsd, whose MD5 is a
# deprecated wrapper of it)
SQLITE_CFLAGS := $(shell pkg-config --cflags sqlite3 2>/dev/null)
SQLITE_LIBS   := $(shell pkg-config --libs sqlite3 2>/dev/null || echo -lsqlite3)
MD_LIBS       := $(shell pkg-config --libs libmd 2>/dev/null || echo -lmd)
LDLIBS_BASE = $(MD_LIBS) $(BSD_LIBS) $(SQLITE_LIBS) -lz -lm
LDLIBS_CODE = -ldw -lelf -L$(LLVM_LIBDIR) -Wl,-rpath,$(LLVM_LIBDIR) $(LLVM_LIBS)

PROGS = sqtt-dump sqtt-encode sqtt-walk stall-attr stall-table stall-diff stall-budget \
	stall-annotate
BIN   = $(addprefix bin/,$(PROGS)) bin/stall bin/sqtt-capture

# Every module of a layer: its .c files (report also has its page, made into C).
layer_objs = $(patsubst libcommon/%.c,build/%.o,$(sort $(shell find libcommon/$(1) -name '*.c')))
OBJ_report_extra = build/report/html-page.o
ARCHIVES = $(foreach l,$(LAYERS),build/lib$(l).a)
ALL_LIBOBJ = $(foreach l,$(LAYERS),$(call layer_objs,$(l))) $(OBJ_report_extra)

# Programs link the archives top layer first; the linker takes only the modules they use,
# so only the programs that disassemble need LLVM and libdw.
LINK = $(CC) $(ALL_CFLAGS) -o $@ $(filter %.o %.c,$^) $(call rev,$(ARCHIVES))
rev = $(if $(1),$(call rev,$(wordlist 2,$(words $(1)),$(1))) $(firstword $(1)))

TEST_BIN = build/pickle_test build/codeobj_test build/gfx9walk_test build/cause_test build/tsv_test build/gfx9_test build/align_test build/budget_test \
	build/dwarf_test build/loops_test build/regs_test build/decode_test build/fatal_test \
	build/worker_test build/errors_test build/timeline_test build/amd_driver

all: $(BIN) $(TEST_BIN)

OBJ_CFLAGS = $(ALL_CFLAGS) $(if $(strip $(LTO)),$(LTO) -ffat-lto-objects)
# The flags the objects were made with, in build/flags: a change remakes them all.
FLAGS_SEEN = $(CC) $(CFLAGS) $(LTO)
ifneq ($(file <build/flags),$(FLAGS_SEEN))
$(shell mkdir -p build)
$(file >build/flags,$(FLAGS_SEEN))
endif

build/%.o: libcommon/%.c build/flags
	@mkdir -p $(dir $@)
	$(CC) $(OBJ_CFLAGS) $(DEPFLAGS) -c -o $@ $<

# The page of stall-table --html, as a C string.
build/report/html-page.c: libcommon/report/html-page.html
	@mkdir -p $(dir $@)
	{ echo 'const char html_page[] ='; sed 's/\\/\\\\/g; s/"/\\"/g; s/?/\\?/g; s/^/"/; s/$$/\\n"/' $<; echo ';'; } > $@

build/report/html-page.o: build/report/html-page.c build/flags
	$(CC) $(OBJ_CFLAGS) -c -o $@ $<

define layer_rule
build/lib$(1).a: $(call layer_objs,$(1)) $(OBJ_$(1)_extra)
	rm -f $$@ && ar rcs $$@ $$^
endef
$(foreach l,$(LAYERS),$(eval $(call layer_rule,$(l))))

build/cmd-%.o: cmd/%.c build/flags | build
	$(CC) $(OBJ_CFLAGS) $(DEPFLAGS) -c -o $@ $<

NOCODE_PROGS = sqtt-dump sqtt-encode stall-attr stall-table
CODE_PROGS = sqtt-walk stall-annotate stall stall-diff stall-budget

$(addprefix bin/,$(NOCODE_PROGS)): bin/%: build/cmd-%.o $(ARCHIVES) | bin
	$(LINK) $(LDLIBS_BASE)

$(addprefix bin/,$(filter-out $(LTO_PROGS),$(CODE_PROGS))): bin/%: build/cmd-%.o $(ARCHIVES) | bin
	$(LINK) $(LDLIBS_BASE) $(LDLIBS_CODE)

$(addprefix bin/,$(LTO_PROGS)): bin/%: build/cmd-%.o $(ARCHIVES) | bin
	$(LINK) $(LTO) $(LDLIBS_BASE) $(LDLIBS_CODE)

# Test drivers of single modules (tests/t01xx, t02xx).
build/pickle_test build/cause_test build/tsv_test build/gfx9_test build/align_test build/budget_test build/timeline_test: build/%: tests/%.c $(ARCHIVES) | build
	$(LINK) $(LDLIBS_BASE)

build/codeobj_test build/gfx9walk_test build/dwarf_test build/loops_test build/regs_test build/decode_test build/worker_test build/errors_test: build/%: tests/%.c $(ARCHIVES) | build
	$(LINK) $(LDLIBS_BASE) $(LDLIBS_CODE)

# the bench's run of AMD's decoder, when its library is there (bench/run.sh)
build/amd_driver: bench/amd_driver.c $(ARCHIVES) | build
	$(LINK) $(LDLIBS_BASE) $(LDLIBS_CODE) -ldl

# capture_open's errors, returned: what they leave (t0987)
build/fatal_test: tests/fatal_test.c $(ARCHIVES) | build
	$(LINK) $(LDLIBS_BASE)

-include $(ALL_LIBOBJ:.o=.d) $(patsubst cmd/%.c,build/cmd-%.d,$(wildcard cmd/*.c))

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

# Every program under valgrind's memcheck on the fixtures and ../shared's captures
# (scripts/valgrind.sh: minutes, not in CI)
valgrind: all
	sh scripts/valgrind.sh

# Sanitizer build of the same tests: make asan-check
asan-check: deps
	$(MAKE) clean
	$(MAKE) all LTO= CFLAGS="-O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all"
	ASAN_OPTIONS=detect_leaks=0 ./check.sh

demo: deps
	$(MAKE) all
	sh fixtures/demo.sh

bench: all
	sh bench/run.sh

# Every mutant of scripts/mutants.sh against the whole suite (CI runs it).
# Without LTO: a mutant's build relinks in 2 s, not 24.
mutants: deps
	$(MAKE) all LTO=
	sh scripts/mutants.sh

lint-man:
	mandoc -Tlint -W warning man/*.1

clean:
	rm -rf build bin tests/out

install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1
	install -m 755 $(BIN) $(DESTDIR)$(PREFIX)/bin
	install -m 644 man/*.1 $(DESTDIR)$(PREFIX)/share/man/man1

.PHONY: all deps check asan-check valgrind demo bench mutants lint-man clean install
