#!/bin/sh
# The compiler of the harness's coverage builds (EVAL_CC): gcc, with libgcov's __gcov_dump
# linked in. The harness's signal handler calls it through a weak reference, which nothing
# else pulls from libgcov, so it stayed NULL: a test that aborted, crashed or failed an
# assumption counted no coverage at all (door_controller.c: Cairn's 9 tests ending in a
# failed assumption scored 23/30 where `cairn replay` measures 26/30).
exec gcc "$@" -Wl,-u,__gcov_dump
