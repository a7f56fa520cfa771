/* nosetuid0.so: an LD_PRELOAD shim that lets sway and cage start as root in a test container.
 *
 * sway 1.7 (sway/main.c, drop_permissions) and cage 0.1.4 (cage.c, drop_permissions) refuse to
 * run when they can still become root after dropping privileges: they call setgid(0) and
 * setuid(0), and "Unable to drop root (we shouldn't be able to restore it after setuid), refusing
 * to start" when either succeeds, which it always does for a process that runs as root.  CI
 * containers (and this suite's machines) run as root with no seat, and running the compositor as
 * another user does not work either: their Xwayland is started without -auth, so it lets in only
 * clients of the compositor's uid, and the suite's clients would be refused.
 *
 * In the one process it is preloaded into, setuid() and setgid() fail with EPERM, so that check
 * passes; its constructor removes LD_PRELOAD from the environment, so no child inherits it (the
 * X server's xkbcomp launcher needs a working setuid(getuid()): with the shim inherited Xwayland
 * stops with "Failed to activate virtual core keyboard").  Preload it on the compositor itself
 * (`exec env LD_PRELOAD={root}/tools/nosetuid0.so sway ...`), never on a shell that starts it.
 * Built by the Makefile (make tools/nosetuid0.so). */
#include <errno.h>
#include <stdlib.h>
#include <sys/types.h>
#include <unistd.h>

__attribute__((constructor)) static void drop_preload(void)
{
    unsetenv("LD_PRELOAD");
}

int setuid(uid_t uid)
{
    (void)uid;
    errno = EPERM;
    return -1;
}

int setgid(gid_t gid)
{
    (void)gid;
    errno = EPERM;
    return -1;
}
