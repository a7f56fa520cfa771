/* Unit tests for the private home of what the suite starts (harness/isolation.c): the folders and
 * their variables, the runtime dir's mode, the bus address named also without a bus, and which
 * commands bring their own bus.  The bus itself is started in tests/test_leftovers.py. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../isolation.h"
#include "../outdir.h"

static char dir[64];

static int setup(void **state)
{
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/framesync-test-isolationXXXXXX");
    return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    remove_tree(dir);
    return 0;
}

/* The value of NAME in iso's variables, or NULL. */
static const char *value_of(const struct isolation *iso, const char *name)
{
    size_t n = strlen(name);
    for (int i = 0; iso->env[i]; i++)
        if (!strncmp(iso->env[i], name, n) && iso->env[i][n] == '=')
            return iso->env[i] + n + 1;
    return NULL;
}

static void test_folders_and_variables(void **state)
{
    (void)state;
    struct isolation iso;
    char err[256] = "", want[256];
    assert_int_equal(isolation_open(&iso, dir, false, 1000, err, sizeof err), 0);
    static const char *const expected[][2] = {
        {"HOME", "home"}, {"XDG_CONFIG_HOME", "home/.config"}, {"XDG_DATA_HOME", "home/.local/share"},
        {"XDG_CACHE_HOME", "home/.cache"}, {"XDG_STATE_HOME", "home/.local/state"}, {"XDG_RUNTIME_DIR", "run"},
        {"TMPDIR", "tmp"}};
    for (size_t i = 0; i < sizeof expected / sizeof expected[0]; i++) {
        snprintf(want, sizeof want, "%s/%s", dir, expected[i][1]);
        assert_non_null(value_of(&iso, expected[i][0]));
        assert_string_equal(value_of(&iso, expected[i][0]), want);
        struct stat st;
        assert_int_equal(stat(want, &st), 0);
        assert_true(S_ISDIR(st.st_mode));
        assert_int_equal(st.st_mode & 0777, 0700);
    }
    /* no bus asked for: the address still names the (absent) socket, so nothing reaches the
     * user's bus or autolaunches one */
    snprintf(want, sizeof want, "unix:path=%s/run/bus", dir);
    assert_string_equal(value_of(&iso, "DBUS_SESSION_BUS_ADDRESS"), want);
    assert_null(iso.bus);
    isolation_close(&iso);
    assert_null(iso.env[0]);
    isolation_close(&iso); /* harmless twice */
}

static void test_command_has_own_bus(void **state)
{
    (void)state;
    assert_true(command_has_own_bus("dbus-run-session -- mutter --x11 --replace"));
    assert_true(command_has_own_bus("exec dbus-run-session -- sh -c 'kwin_x11 --replace'"));
    assert_true(command_has_own_bus("env A=1 dbus-run-session -- xfwm4"));
    assert_false(command_has_own_bus("openbox --replace --sm-disable"));
    assert_false(command_has_own_bus("exec fake-wm --profile dbus-run-session"));
    assert_false(command_has_own_bus("sh -c 'dbus-run-session -- wm'")); /* not its first program */
    assert_false(command_has_own_bus(""));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_folders_and_variables, setup, teardown),
        cmocka_unit_test(test_command_has_own_bus),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
