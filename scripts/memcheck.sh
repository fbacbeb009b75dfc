#!/bin/sh
# scripts/memcheck.sh LOG PROG [ARG...]: PROG under valgrind's memcheck, its findings to
# LOG, with the options every memcheck run of the project shares (scripts/valgrind.sh,
# t0701): an invalid read or write, a jump on an uninitialised value, a bad free or a
# definite leak is an error, and the exit is then 99 (else PROG's own).  MEMCHECK_EXTRA:
# more valgrind options (scripts/valgrind.sh: --track-origins=yes).
log=$1
shift
# shellcheck disable=SC2086
exec valgrind --quiet --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite \
    --show-leak-kinds=definite ${MEMCHECK_EXTRA:-} --log-file="$log" "$@"
