/* Unit tests for the named-client files (harness/client-profile.c, clients/README.md). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../client-profile.h"

static char path[64];

static void write_file(const char *text)
{
    snprintf(path, sizeof path, "/tmp/framesync-test-clientXXXXXX");
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

static void expect_error(const char *text, int line, const char *want)
{
    write_file(text);
    struct client_profile p;
    char err[1024] = "";
    assert_int_equal(client_profile_parse(path, &p, err, sizeof err), -1);
    char prefix[128];
    snprintf(prefix, sizeof prefix, "%s:%d: ", path, line);
    if (strncmp(err, prefix, strlen(prefix)) || !strstr(err, want))
        fail_msg("error \"%s\", wanted \"%s...%s\"", err, prefix, want);
}

static void test_parses_every_key(void **state)
{
    (void)state;
    write_file("# a comment\ncommand:  exec my-app --demo {root}/x\nenv: A=1\nenv: B={tmpdir}/b\n"
               "packages: my-app\nanimates: a spinner\nnotes: n1\nnotes: n2\n");
    struct client_profile p;
    char err[1024];
    assert_int_equal(client_profile_parse(path, &p, err, sizeof err), 0);
    assert_string_equal(p.command, "exec my-app --demo {root}/x");
    assert_int_equal(p.nenv, 2);
    assert_string_equal(p.binary, "my-app"); /* derived: the first word after exec */
    assert_string_equal(p.animates, "a spinner");
    char cmd[256];
    client_profile_command(&p, "/r", "/t", cmd, sizeof cmd);
    assert_string_equal(cmd, "exec my-app --demo /r/x");
    client_profile_setenv(&p, "/r", "/t");
    assert_string_equal(getenv("B"), "/t/b");
    client_profile_free(&p);
}

static void test_errors_name_file_and_line(void **state)
{
    (void)state;
    expect_error("command: a\ncolour: red\n", 2, "unknown key `colour`");
    teardown(NULL);
    expect_error("command: a\ncommand: b\n", 2, "`command:` given twice");
    teardown(NULL);
    expect_error("env: A=1\n", 1, "expected one `command:` line");
    teardown(NULL);
    expect_error("command: a\nenv: =1\n", 2, "expected `env: NAME=VALUE`");
    teardown(NULL);
    expect_error("command: a\njust words\n", 2, "expected `key: value`");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_teardown(test_parses_every_key, teardown),
        cmocka_unit_test_teardown(test_errors_name_file_and_line, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
