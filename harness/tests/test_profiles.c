/* Unit tests for the named-compositor and named-client files: compositors/NAME.conf
 * (harness/compositor-profile.c), clients/NAME.conf (harness/client-profile.c), both read by
 * harness/conffile.c: every key, and bad input named by file and line. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../client-profile.h"
#include "../compositor-profile.h"

static char path[64];

static void write_file(const char *text)
{
    snprintf(path, sizeof path, "/tmp/framesync-test-profileXXXXXX");
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
    close(fd);
}

static int teardown(void **state)
{
    (void)state;
    if (path[0])
        unlink(path);
    path[0] = 0;
    return 0;
}

static int parse_client(const char *p, char *err, size_t len)
{
    struct client_profile c;
    int rc = client_profile_parse(p, &c, err, len);
    if (rc == 0)
        client_profile_free(&c);
    return rc;
}

static int parse_wm(const char *p, char *err, size_t len)
{
    struct compositor_profile c;
    int rc = compositor_profile_parse(p, &c, err, len);
    for (int i = 0; rc == 0 && i < c.nenv; i++)
        free(c.env[i]);
    return rc;
}

/* text is refused by parse at line, with a message containing want */
static void expect_error(int (*parse)(const char *, char *, size_t), const char *text, int line, const char *want)
{
    write_file(text);
    char err[1024] = "";
    assert_int_equal(parse(path, err, sizeof err), -1);
    char prefix[128];
    snprintf(prefix, sizeof prefix, "%s:%d: ", path, line);
    if (strncmp(err, prefix, strlen(prefix)) || !strstr(err, want))
        fail_msg("error \"%s\", wanted \"%s...%s\"", err, prefix, want);
    teardown(NULL);
}

static void test_client_every_key(void **state)
{
    (void)state;
    write_file("# a comment\ncommand:  exec my-app --demo {root}/x\nenv: A=1\nenv: B={tmpdir}/b\n"
               "packages: my-app\nanimates: forever a spinner\nnotes: n1\nnotes: n2\n");
    struct client_profile p;
    char err[1024];
    assert_int_equal(client_profile_parse(path, &p, err, sizeof err), 0);
    assert_string_equal(p.command, "exec my-app --demo {root}/x");
    assert_int_equal(p.nenv, 2);
    assert_string_equal(p.binary, "my-app"); /* derived: the first word after exec */
    assert_string_equal(p.animates, "forever a spinner");
    assert_string_equal(p.animates_word, "forever");
    char cmd[256];
    client_profile_command(&p, "/r", "/t", cmd, sizeof cmd);
    assert_string_equal(cmd, "exec my-app --demo /r/x");
    client_profile_setenv(&p, "/r", "/t");
    assert_string_equal(getenv("B"), "/t/b");
    client_profile_free(&p);
}

/* a program of ours in clients/ (`exec {root}/clients/demo`): the binary that --list-clients and
 * --client check is the expanded path, whether derived from command: or given as binary: */
static void test_client_binary_under_root(void **state)
{
    (void)state;
    char root[] = "/tmp/framesync-test-rootXXXXXX", dir[64], conf[96];
    assert_non_null(mkdtemp(root));
    snprintf(dir, sizeof dir, "%s/clients", root);
    assert_int_equal(mkdir(dir, 0700), 0);
    snprintf(conf, sizeof conf, "%s/demo.conf", dir);
    FILE *f = fopen(conf, "w");
    assert_non_null(f);
    fputs("command: exec {root}/clients/demo still\n", f);
    fclose(f);
    struct client_profile p;
    assert_int_equal(client_profile_lookup(root, "demo", &p), 1);
    char want[128];
    snprintf(want, sizeof want, "%s/clients/demo", root);
    assert_string_equal(p.binary, want);
    client_profile_free(&p);
    unlink(conf);
    rmdir(dir);
    rmdir(root);
}

static void test_client_errors(void **state)
{
    (void)state;
    expect_error(parse_client, "command: a\ncolour: red\n", 2, "unknown key `colour`");
    expect_error(parse_client, "command: a\ncommand: b\n", 2, "`command:` given twice");
    expect_error(parse_client, "command: a\nanimates: a spinner\n", 2, "expected `animates: forever|once|no");
    expect_error(parse_client, "command: a\nanimates: forevermore\n", 2, "expected `animates: forever|once|no");
    expect_error(parse_client, "env: A=1\n", 1, "expected one `command:` line");
    expect_error(parse_client, "command: a\nenv: =1\n", 2, "expected `env: NAME=VALUE`");
    expect_error(parse_client, "command: a\njust words\n", 2, "expected `key: value`");
}

static void test_compositor_every_key(void **state)
{
    (void)state;
    write_file("# a comment\ncommand:  dbus-run-session --config-file=x -- env A=1 my-wm --replace\n"
               "env: XDG_RUNTIME_DIR={tmpdir}\nready: wm+cm\ncomposites: yes\nresize-trigger: keyboard\n"
               "packages: my-wm\nnotes: n1\nnotes: n2\npacing: --vblank=off\npacing: (pinned)\n"
               "replace: my-wm --replace --profile {profile}\n");
    struct compositor_profile p;
    char err[1024] = "";
    assert_int_equal(compositor_profile_parse(path, &p, err, sizeof err), 0);
    assert_int_equal(p.nenv, 1);
    assert_string_equal(p.ready, "wm+cm");
    assert_true(p.composites);
    assert_string_equal(p.resize_trigger, "keyboard");
    assert_string_equal(p.binary, "my-wm"); /* derived past dbus-run-session ... --, env, A=1 */
    assert_string_equal(p.notes, "n1 n2");
    assert_string_equal(p.pacing, "--vblank=off (pinned)");
    assert_string_equal(p.replace, "my-wm --replace --profile {profile}");
    free(p.env[0]);
}

/* The keys of a compositor that brings its own X server: its screen capture, why its run may
 * test nothing, why XTEST does not reach it. */
static void test_compositor_own_server_keys(void **state)
{
    (void)state;
    write_file("command: my-wayland --session {report}\nxserver: own\nready: wm+cm\ncomposites: yes\n"
               "screen-capture: {root}/tools/shot {x} {y} {w} {h}\nallow-empty: its XWM has\nallow-empty: no sync code\n"
               "no-xtest: XTEST reaches Xwayland only\ninput: {root}/tools/seat --quiet\n");
    struct compositor_profile p;
    char err[1024] = "";
    assert_int_equal(compositor_profile_parse(path, &p, err, sizeof err), 0);
    assert_true(p.own_xserver);
    assert_string_equal(p.screen_capture, "{root}/tools/shot {x} {y} {w} {h}");
    assert_string_equal(p.allow_empty, "its XWM has no sync code");
    assert_string_equal(p.no_xtest, "XTEST reaches Xwayland only");
    assert_string_equal(p.input, "{root}/tools/seat --quiet");
    assert_int_equal(p.input_barrier, 0); /* none unless it says */
    teardown(NULL);
    write_file("command: a {report}\nxserver: own\nready: wm\ncomposites: no\ninput: s\n"
               "input-barrier: fullscreen-monitors\n");
    assert_int_equal(compositor_profile_parse(path, &p, err, sizeof err), 0);
    assert_int_equal(p.input_barrier, 1); /* common/input-barrier.h: fullscreen-monitors */
    teardown(NULL);
    expect_error(parse_wm, "command: a {report}\nxserver: own\nready: wm\ncomposites: no\ninput: s\ninput: t\n", 6,
                 "a second `input:`");
    expect_error(parse_wm, "command: a {report}\nxserver: own\nready: wm\ncomposites: no\ninput: s\n"
                 "input-barrier: demands-attention\n", 6,
                 "`input-barrier:` takes none or fullscreen-monitors, not `demands-attention`");
    expect_error(parse_wm, "command: a {report}\nxserver: own\nready: wm\ncomposites: no\ninput: s\n"
                 "input-barrier: none\ninput-barrier: none\n", 7, "a second `input-barrier:` (one is allowed)");
    expect_error(parse_wm, "command: a {report}\nxserver: own\nready: wm\ncomposites: no\n"
                 "input-barrier: fullscreen-monitors\n", 5,
                 "`input-barrier:` orders the events of `input:`, and there is none");
    expect_error(parse_wm, "command: a {report}\nxserver: own\nready: wm\ncomposites: no\nscreen-capture: shot {x} {y}\n",
                 5, "`screen-capture:` needs {x}, {y}, {w} and {h}");
    expect_error(parse_wm, "command: a\nready: wm\ncomposites: no\nscreen-capture: shot {x} {y} {w} {h}\n", 4,
                 "`screen-capture:` is for a compositor that brings its own X server");
    expect_error(parse_wm, "command: a {report}\nxserver: own\nready: wm\ncomposites: no\n"
                 "screen-capture: s {x} {y} {w} {h}\nscreen-capture: t {x} {y} {w} {h}\n", 6, "a second `screen-capture:`");
}

/* screen-stream: one helper command, for a compositor that brings its own X server; bad input is
 * named by file and line. */
static void test_compositor_screen_stream(void **state)
{
    (void)state;
    write_file("command: my-wayland {report}\nxserver: own\nready: wm+cm\ncomposites: yes\n"
               "screen-stream: {root}/tools/wlr-capture\n");
    struct compositor_profile p;
    char err[1024] = "";
    assert_int_equal(compositor_profile_parse(path, &p, err, sizeof err), 0);
    assert_string_equal(p.screen_stream, "{root}/tools/wlr-capture");
    teardown(NULL);
    expect_error(parse_wm, "command: a {report}\nxserver: own\nready: wm\ncomposites: no\nscreen-stream: s\n"
                 "screen-stream: t\n", 6, "a second `screen-stream:` (one is allowed)");
    expect_error(parse_wm, "command: a\nready: wm\ncomposites: no\nscreen-stream: s\n", 4,
                 "`screen-stream:` is for a compositor that brings its own X server (`xserver: own`)");
    expect_error(parse_wm, "command: a {report}\nxserver: own\nready: wm\ncomposites: no\nscreen-stream:\n", 5,
                 "`screen-stream:` needs a value");
}

/* --wm PATH.conf reads a conf outside compositors/ (tests/confs/); a missing one is an error. */
static void test_compositor_conf_path(void **state)
{
    (void)state;
    snprintf(path, sizeof path, "/tmp/framesync-test-profileXXXXXX.conf");
    int fd = mkstemps(path, 5);
    assert_true(fd >= 0);
    const char text[] = "command: a {report}\nxserver: own\nready: wm\ncomposites: no\n";
    assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
    close(fd);
    struct compositor_profile p;
    assert_int_equal(compositor_profile_lookup("/nonexistent", path, &p), 1);
    assert_string_equal(p.command, "a {report}");
    assert_int_equal(compositor_profile_lookup("/nonexistent", "/nonexistent/none.conf", &p), -1);
    assert_int_equal(compositor_profile_lookup("/nonexistent", "my-wm --flag x.conf", &p), 0); /* a command line */
}

static void test_compositor_errors(void **state)
{
    (void)state;
    expect_error(parse_wm, "command: a\nready: maybe\n", 2, "`ready:` takes wm, cm, wm+cm or auto, not `maybe`");
    expect_error(parse_wm, "command: a\nready: wm\n", 2, "no `composites:` line");
    expect_error(parse_wm, "ready: wm\ncomposites: no\n", 2, "no `command:` line");
    expect_error(parse_wm, "Command: a\n", 1, "expected `key: value`, got `Command:a`");
    expect_error(parse_wm, "command: a\nready:\n", 2, "`ready:` needs a value");
    expect_error(parse_wm, "command: a\nenv: 1A=2\n", 2, "`env:` takes NAME=VALUE, got `1A=2`");
    expect_error(parse_wm, "command: a\ncommand: b\n", 2, "a second `command:`");
    expect_error(parse_wm, "command: a\ncolour: red\n", 2, "unknown key `colour:`");
    expect_error(parse_wm, "command: a\nreplace: a --replace\nreplace: b\n", 3, "a second `replace:`");
    expect_error(parse_wm, "command: a {report}\nxserver: own\nready: wm\ncomposites: no\nreplace: a --replace\n", 5,
                 "`replace:` is for a compositor on the suite's Xvfb");
    char long_line[5000];
    memset(long_line, 'x', sizeof long_line - 2);
    memcpy(long_line, "notes: ", 7);
    long_line[sizeof long_line - 2] = '\n';
    long_line[sizeof long_line - 1] = 0;
    expect_error(parse_wm, long_line, 1, "line longer than 4094 characters");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_teardown(test_client_every_key, teardown),
        cmocka_unit_test_teardown(test_client_binary_under_root, teardown),
        cmocka_unit_test_teardown(test_client_errors, teardown),
        cmocka_unit_test_teardown(test_compositor_every_key, teardown),
        cmocka_unit_test_teardown(test_compositor_own_server_keys, teardown),
        cmocka_unit_test_teardown(test_compositor_screen_stream, teardown),
        cmocka_unit_test_teardown(test_compositor_conf_path, teardown),
        cmocka_unit_test_teardown(test_compositor_errors, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
