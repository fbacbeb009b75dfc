/* For the harnesses of readers whose errors end the program ("prog: PATH: reason",
 * exit 2): linked with -Wl,--wrap=exit,--wrap=err,--wrap=errx,--wrap=verrx (scripts/
 * fuzz.sh), a fatal error inside FUZZ_TRY returns there instead, so that every input is
 * one run.  The library's fatal error (die, util.h) has freed what the readers held
 * before it exits (fatal_push), so the harnesses run with leak detection: a leak on an
 * error path is a finding. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

static jmp_buf fuzz_back;
static int fuzz_armed;

void __real_exit(int) __attribute__((noreturn));
void __wrap_exit(int st) __attribute__((noreturn));
void __wrap_err(int st, const char *fmt, ...) __attribute__((noreturn));
void __wrap_errx(int st, const char *fmt, ...) __attribute__((noreturn));
void __wrap_verrx(int st, const char *fmt, va_list ap) __attribute__((noreturn));

void
__wrap_exit(int st)
{
	if (fuzz_armed)
		longjmp(fuzz_back, 1);
	__real_exit(st);
}

void
__wrap_err(int st, const char *fmt, ...)
{
	(void)fmt;
	__wrap_exit(st);
}

void
__wrap_errx(int st, const char *fmt, ...)
{
	(void)fmt;
	__wrap_exit(st);
}

void
__wrap_verrx(int st, const char *fmt, va_list ap)
{
	(void)fmt;
	(void)ap;
	__wrap_exit(st);
}

/* FUZZ_TRY(stmt): stmt, unless it ended in a fatal error */
#define FUZZ_TRY(...) do { \
		fuzz_armed = 1; \
		if (setjmp(fuzz_back) == 0) { __VA_ARGS__; } \
		fuzz_armed = 0; \
	} while (0)
