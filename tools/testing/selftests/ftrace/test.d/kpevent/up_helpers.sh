# SPDX-License-Identifier: GPL-2.0
# up_helpers.sh - the probe target of the uprobe event tests (up_*.tc).
#
# Sourced (not run) by those tests, in the tracefs directory.  It sets
#   UPT          the target program, /guest/uptarget (driver/guest/uptarget.c);
#                the test is unresolved when it is not there
#   OFF_GREET OFF_BYTES OFF_ADD OFF_POKE
#                file offsets of its functions up_greet(char *),
#                up_bytes(u8 *), up_add(long, long), up_poke(char *)
#   OFF_GLOBAL   the @+OFFS offset of its u32 up_global (0x12345678)
#   A1 A2        the first two argument registers (%di %si on x86_64)
# and defines
#   up_run N     call each target function N times
#   up_hits EV   EV's hit count (last column of uprobe_profile)

UPT=/guest/uptarget
[ -x "$UPT" ] || exit_unresolved

case $(uname -m) in
x86_64)		A1=%di; A2=%si ;;
aarch64)	A1=%x0; A2=%x1 ;;
*)		exit_unsupported ;;
esac

up_sym() { # NAME -> its offset
	"$UPT" syms | awk -v n="$1" '$1 == n { print $2 }'
}

OFF_GREET=$(up_sym up_greet)
OFF_BYTES=$(up_sym up_bytes)
OFF_ADD=$(up_sym up_add)
OFF_POKE=$(up_sym up_poke)
OFF_GLOBAL=$(up_sym up_global)
[ -n "$OFF_GREET" ] && [ -n "$OFF_GLOBAL" ] || exit_unresolved

up_run() { # N
	"$UPT" run "$1"
}

up_hits() { # event -> hits
	awk -v e="$1" '$2 == e { print $3 }' uprobe_profile
}
