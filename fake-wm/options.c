/* The command line: fills `opt` (state.h), the faults and the variants (fake-wm/README.md has
 * the options), and settles what the variants and faults mean for the options other parts read. */
#include "options.h"

#include "faults.h"
#include "injections.h"
#include "state.h"
#include "policies.h"
#include "variants.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void usage(FILE *f)
{
    fprintf(f,
            "usage: fake-wm [--profile ewmh-1.5|draft-2011|de-facto] [--refresh-hz N]\n"
            "               [--sync-timeout-ms N] [--hold-timeout-ms N] [--variant NAME]...\n"
            "               [--compress] [--no-composite] [--inject FAULT]...\n"
            "               [--replace] [--policy NAME] [--list-variants] [--list-faults]\n"
            "               [--list-policies] [--verbose]\n"
            "  --profile P          the text it implements (default ewmh-1.5)\n"
            "  --refresh-hz N       repaint at most N times a second (default 60)\n"
            "  --sync-timeout-ms N  wait for a sync request's answer or a fence (default 1000)\n"
            "  --hold-timeout-ms N  hold a window in the middle of an update (default 2000)\n"
            "  --variant NAME       switch on an allowed behaviour of a real compositor\n"
            "                       (repeatable; see --list-variants)\n"
            "  --compress           the same as --variant compress\n"
            "  --no-composite       the same as --variant wm-only\n"
            "  --inject FAULT       break one clause (repeatable; see --list-faults)\n"
            "  --policy NAME        treat client windows as a named compositor does (client\n"
            "                       runs; see --list-policies), and note to the observer when a\n"
            "                       window is first shown\n"
            "  --replace            take WM_S0 and _NET_WM_CM_S0 from the running manager (ICCCM 2.8)\n"
            "                       and manage the windows it leaves\n"
            "  --list-variants      NAME<TAB>what it does<TAB>like which compositor, then exit\n"
            "  --list-faults        FAULT<TAB>CLAUSE<TAB>what goes wrong, then exit\n"
            "  --verbose            log every event, with CLOCK_MONOTONIC microseconds\n"
            "benchmark injections (not clause faults, not in --list-faults):\n");
    injections_help(f);
}

static void enable_variant(const char *name)
{
    int k = name ? variant_lookup(name) : -1;
    if (k < 0) {
        char all[1024];
        variants_names(all, sizeof all);
        fprintf(stderr, "fake-wm: unknown variant '%s' for --variant (one of: %s)\n", name ? name : "", all);
        exit(2);
    }
    variant_on[k] = true;
}

/* options a variant also sets: given both ways, the run would not be what either says */
static bool hold_timeout_given, refresh_given, sync_timeout_given;

/* setter: the variant or fault that sets the option ("--variant hold-1s") */
static void refuse_with_option(bool given, const char *option, const char *setter)
{
    if (!given)
        return;
    fprintf(stderr, "fake-wm: %s and %s cannot be combined: the latter sets it\n", option, setter);
    exit(2);
}

static void select_policy(const char *name)
{
    if (policy_select(name) && strcmp(name, "none"))
        return;
    char all[512];
    policies_names(all, sizeof all);
    fprintf(stderr, "fake-wm: unknown policy '%s' for --policy (one of: %s)\n", name ? name : "", all);
    exit(2);
}

/* what the policy means for the variants and options (policies.c has the rows) */
static void apply_policy(void)
{
    if (POLICY(SYNC_AT_MAP))
        variant_on[V_SYNC_AT_MAP] = true;
    if (POLICY(SLOW_ANSWER_TIMEOUT)) {
        refuse_with_option(sync_timeout_given, "--sync-timeout-ms", "--policy slow-answer-timeout");
        opt.sync_timeout_ms = SLOW_ANSWER_TIMEOUT_MS;
    }
}

/* what the variants switched on mean for the options that other parts read */
static void apply_variants(void)
{
    /* the compositors that sync at map (compiz, KWin) are basic-form only, and so is the
     * variant: a map-time request to an extended window would move the counter its first frame
     * is reported with, which no implementation does */
    if (FAULT(MAP_UNSYNCED_AFTER_UNMAP)) /* breaks the map-time request, so makes one */
        variant_on[V_SYNC_AT_MAP] = true;
    if (VARIANT(SYNC_AT_MAP))
        variant_on[V_BASIC_ONLY] = true;
    variants_check_conflicts();
    opt.composite = !VARIANT(WM_ONLY);
    opt.compress = VARIANT(COMPRESS);
    if (VARIANT(HOLD_1S) || VARIANT(HOLD_4S)) {
        refuse_with_option(hold_timeout_given, "--hold-timeout-ms",
                           VARIANT(HOLD_1S) ? "--variant hold-1s" : "--variant hold-4s");
        opt.hold_timeout_ms = VARIANT(HOLD_1S) ? 1000 : 4000;
    }
    if (VARIANT(ANSWER_4S)) {
        refuse_with_option(sync_timeout_given, "--sync-timeout-ms", "--variant answer-4s");
        opt.sync_timeout_ms = 4000;
    }
    if (VARIANT(SLOW_REFRESH)) {
        refuse_with_option(refresh_given, "--refresh-hz", "--variant slow-refresh");
        opt.refresh_hz = 20; /* a 50 ms frame timer */
    }
}

/* what the faults switched on mean for the options that other parts read */
static void apply_faults(void)
{
    if (FAULT(HOLD_TIMEOUT_5MS)) {
        /* the hold gives up by the same path as with --hold-timeout-ms: only the bound is wrong,
         * so short that a probe sees an unfinished update on screen */
        refuse_with_option(hold_timeout_given, "--hold-timeout-ms", "--inject hold-timeout-5ms");
        if (VARIANT(HOLD_1S) || VARIANT(HOLD_4S)) {
            fprintf(stderr, "fake-wm: --inject hold-timeout-5ms and --variant %s cannot be combined: each sets the "
                    "hold timeout\n", VARIANT(HOLD_1S) ? "hold-1s" : "hold-4s");
            exit(2);
        }
        opt.hold_timeout_ms = 5;
    }
}

static int parse_int(const char *opt_name, const char *s, int lo, int hi)
{
    char *end;
    errno = 0;
    long v = s ? strtol(s, &end, 10) : 0;
    if (!s || errno || *end || end == s || v < lo || v > hi) {
        fprintf(stderr, "fake-wm: %s needs a number from %d to %d, not '%s'\n", opt_name, lo, hi,
                s ? s : "");
        exit(2);
    }
    return (int)v;
}

void options_parse(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        /* accept --opt=value as well as --opt value */
        char name[64];
        const char *val = NULL;
        const char *eq = strchr(a, '=');
        if (eq && strncmp(a, "--", 2) == 0 && (size_t)(eq - a) < sizeof name) {
            memcpy(name, a, (size_t)(eq - a));
            name[eq - a] = '\0';
            val = eq + 1;
        } else {
            snprintf(name, sizeof name, "%s", a);
        }
#define NEXTVAL() (val ? val : (i + 1 < argc ? argv[++i] : NULL))
        if (strcmp(name, "--profile") == 0) {
            const char *p = NEXTVAL();
            int bit = p ? profile_parse(p) : 0;
            if (bit)
                opt.profile = (enum profile)bit;
            else {
                fprintf(stderr, "fake-wm: unknown profile '%s' for --profile (ewmh-1.5, draft-2011, de-facto)\n",
                        p ? p : "");
                exit(2);
            }
        } else if (strcmp(name, "--refresh-hz") == 0) {
            opt.refresh_hz = parse_int("--refresh-hz", NEXTVAL(), 1, 1000);
            refresh_given = true;
        } else if (strcmp(name, "--sync-timeout-ms") == 0) {
            opt.sync_timeout_ms = parse_int("--sync-timeout-ms", NEXTVAL(), 1, 3600000);
            sync_timeout_given = true;
        } else if (strcmp(name, "--hold-timeout-ms") == 0) {
            opt.hold_timeout_ms = parse_int("--hold-timeout-ms", NEXTVAL(), 1, 3600000);
            hold_timeout_given = true;
        } else if (strcmp(name, "--variant") == 0) {
            enable_variant(NEXTVAL());
        } else if (strcmp(name, "--compress") == 0 && !val) {
            enable_variant("compress");
        } else if (strcmp(name, "--no-composite") == 0 && !val) {
            enable_variant("wm-only");
        } else if (strcmp(name, "--policy") == 0) {
            select_policy(NEXTVAL());
        } else if (strcmp(name, "--list-policies") == 0 && !val) {
            policies_list();
            exit(0);
        } else if (strcmp(name, "--list-variants") == 0 && !val) {
            variants_list();
            exit(0);
        } else if (strcmp(name, "--verbose") == 0 && !val) {
            opt.verbose = true;
        } else if (strcmp(name, "--replace") == 0 && !val) {
            opt.replace = true;
        } else if (strcmp(name, "--inject") == 0) {
            const char *f = NEXTVAL();
            if (f && injection_parse(f))
                continue;
            int k = f ? fault_lookup(f) : -1;
            if (k < 0) {
                fprintf(stderr, "fake-wm: unknown fault '%s' for --inject (see --list-faults)\n", f ? f : "");
                exit(2);
            }
            fault_on[k] = true;
        } else if (strcmp(name, "--list-faults") == 0 && !val) {
            faults_list();
            exit(0);
        } else if ((strcmp(name, "--help") == 0 || strcmp(name, "-h") == 0) && !val) {
            usage(stdout);
            exit(0);
        } else {
            fprintf(stderr, "fake-wm: unknown option '%s'\n", a);
            usage(stderr);
            exit(2);
        }
#undef NEXTVAL
    }
    apply_policy();
    apply_variants();
    apply_faults();
}
