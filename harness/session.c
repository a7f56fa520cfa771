#include "session.h"
#include "clock.h"
#include "input-barrier.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void session_init(struct session *s, const char *client_binary, const char *log_prefix)
{
    memset(s, 0, sizeof *s);
    timeline_init(&s->tl, clock_now_us());
    s->client_binary = client_binary;
    s->input_fd = -1;
    s->log_prefix = log_prefix;
}

struct record *session_add_record(struct session *s, struct record *r)
{
    timeline_add(&s->tl, r);
    for (int i = 0; i < s->noracles; i++)
        if (s->oracles[i]->observe && strcmp(r->source, s->oracles[i]->name))
            s->oracles[i]->observe(s->oracles[i], s, r);
    return r;
}

void session_attach_oracle(struct session *s, struct oracle *o)
{
    if (s->noracles == SESSION_MAX_ORACLES)
        return;
    s->oracles[s->noracles++] = o;
    if (o->case_begin)
        o->case_begin(o, s);
}

void session_detach_oracles(struct session *s)
{
    for (int i = 0; i < s->noracles; i++)
        if (s->oracles[i]->case_end)
            s->oracles[i]->case_end(s->oracles[i], s);
    s->noracles = 0;
}

void session_stop_clients(struct session *s)
{
    for (int i = 0; i < s->nclients; i++) {
        struct client *c = &s->clients[i];
        if (c->in_fd >= 0)
            close(c->in_fd);   /* EOF on stdin: a well-behaved client exits by itself */
        c->in_fd = -1;
        proc_stop(c->proc, 300);
        c->proc = NULL;
        if (c->out_fd >= 0)
            close(c->out_fd);
        c->out_fd = -1;
        c->eof = true;
    }
}

void session_free(struct session *s)
{
    session_detach_oracles(s);
    session_stop_clients(s);
    for (int i = 0; i < s->nvars; i++)
        free(s->vars[i].name);
    timeline_free(&s->tl);
    memset(s, 0, sizeof *s);
}

struct client *session_client(struct session *s, const char *name)
{
    for (int i = 0; i < s->nclients; i++)
        if (!strcmp(s->clients[i].name, name))
            return &s->clients[i];
    return NULL;
}

void session_note(struct session *s, const char *fmt, ...)
{
    char buf[900];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    struct record *r = record_make("harness", clock_now_us(), "%s", buf);
    if (r)
        session_add_record(s, r);
}

/* What the observer of the application under test says of it: it mapped a toplevel (it started),
 * or it ended by itself (the first `app-exit`). */
static void note_app(struct session *s, const struct client *c, const struct record *r)
{
    if (!c->under_test)
        return;
    if (!strcmp(r->kind, "map-window"))
        s->app_mapped = true;
    else if (!strcmp(r->kind, "app-exit") && !s->app_exit) {
        s->app_exit = r;
        s->app_exit_client = c;
    }
}

void session_take_record(struct session *s, const struct client *c, struct record *r)
{
    session_add_record(s, r);
    note_app(s, c, r);
}

struct client *session_adopt_client(struct session *s, const struct client *c)
{
    if (s->nclients == SESSION_MAX_CLIENTS)
        return NULL;
    s->clients[s->nclients] = *c;
    return &s->clients[s->nclients++];
}

void session_release_client(struct client *c)
{
    c->in_fd = c->out_fd = -1;
    c->proc = NULL;
    c->eof = true;
}

/* Splits what a client wrote into records; a line that is not a record is kept as `garbage`,
 * so a broken fake client shows in the timeline instead of vanishing. */
static int take_lines(struct session *s, struct client *c)
{
    int added = 0;
    char *start = c->buf, *nl;
    while ((nl = memchr(start, '\n', c->len - (size_t)(start - c->buf)))) {
        *nl = 0;
        struct record *r = record_parse(c->name, start);
        if (!r)
            r = record_make(c->name, clock_now_us(), "garbage msg=%s", start);
        if (r) {
            session_add_record(s, r);
            note_app(s, c, r);
            added++;
        }
        start = nl + 1;
    }
    size_t rest = c->len - (size_t)(start - c->buf);
    memmove(c->buf, start, rest);
    c->len = rest;
    if (c->len == sizeof c->buf) /* a line longer than the buffer: drop it */
        c->len = 0;
    return added;
}

int session_pump(struct session *s, int64_t deadline_us, int extra_fd)
{
    struct pollfd pfd[SESSION_MAX_CLIENTS + SESSION_MAX_ORACLES + 2];
    int added = 0;
    for (;;) {
        int n = 0;
        for (int i = 0; i < s->nclients; i++)
            pfd[n++] = (struct pollfd){.fd = s->clients[i].eof ? -1 : s->clients[i].out_fd, .events = POLLIN};
        int first_oracle = n;
        for (int i = 0; i < s->noracles; i++)
            pfd[n++] = (struct pollfd){.fd = s->oracles[i]->fd, .events = POLLIN};
        int sig = n;
        pfd[n++] = (struct pollfd){.fd = proc_signal_fd(), .events = POLLIN};
        pfd[n++] = (struct pollfd){.fd = extra_fd, .events = POLLIN};
        int64_t left = deadline_us - clock_now_us();
        int timeout = left <= 0 ? 0 : (int)((left + 999) / 1000);
        int r = poll(pfd, (nfds_t)n, timeout);
        if (r < 0 && errno != EINTR)
            return added;
        if (pfd[sig].revents)
            proc_handle_signals();
        int before = s->tl.n;
        for (int i = 0; i < s->noracles; i++)
            if (pfd[first_oracle + i].revents && s->oracles[i]->readable)
                s->oracles[i]->readable(s->oracles[i], s);
        added += s->tl.n - before;
        for (int i = 0; i < s->nclients; i++) {
            struct client *c = &s->clients[i];
            if (!(pfd[i].revents & (POLLIN | POLLHUP | POLLERR)))
                continue;
            ssize_t got = read(c->out_fd, c->buf + c->len, sizeof c->buf - c->len);
            if (got > 0) {
                c->len += (size_t)got;
                added += take_lines(s, c);
            } else if (got == 0 || (errno != EAGAIN && errno != EINTR)) {
                c->eof = true;
            }
        }
        if (added || r != 0 || clock_now_us() >= deadline_us || proc_interrupted() ||
            (extra_fd >= 0 && pfd[n - 1].revents))
            return added;
    }
}

int session_add_client(struct session *s, const char *name, int timeout_ms, char *err, size_t len)
{
    return session_add_client_binary(s, name, s->client_binary, timeout_ms, err, len);
}

static int add_client(struct session *s, const char *name, const char *binary, bool under_test, int timeout_ms,
                      char *err, size_t len);

int session_add_client_binary(struct session *s, const char *name, const char *binary, int timeout_ms, char *err,
                              size_t len)
{
    return add_client(s, name, binary, false, timeout_ms, err, len);
}

int session_add_app_observer(struct session *s, const char *name, const char *binary, int timeout_ms, char *err,
                             size_t len)
{
    return add_client(s, name, binary, true, timeout_ms, err, len);
}

void session_drain(struct session *s)
{
    for (int pass = 0; pass < 16 && session_pump(s, clock_now_us(), -1) > 0; pass++)
        ; /* bounded: the oracles may keep reporting */
}

static int add_client(struct session *s, const char *name, const char *binary, bool under_test, int timeout_ms,
                      char *err, size_t len)
{
    if (s->nclients == SESSION_MAX_CLIENTS) {
        snprintf(err, len, "too many clients");
        return -1;
    }
    int in[2], out[2];
    if (pipe2(in, O_CLOEXEC) < 0 || pipe2(out, O_CLOEXEC) < 0) {
        snprintf(err, len, "pipe: %s", strerror(errno));
        return -1;
    }
    struct client *c = &s->clients[s->nclients];
    memset(c, 0, sizeof *c);
    snprintf(c->name, sizeof c->name, "%s", name);
    c->under_test = under_test;
    snprintf(c->stderr_path, sizeof c->stderr_path, "%s.client-%s.log", s->log_prefix, name);
    int efd = open(c->stderr_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    const char *argv[] = {binary, "--name", name, NULL};
    /* Every fake client starts its XIDs at another place in its range: the X server gives a new
     * connection the ID range of the last one that closed, so without this a case's window has
     * the XID of the last case's, and a compositor still busy with the last case's events (a late
     * counter answer, a queued resize) reaches this case's window through a stale XID. */
    static unsigned spawned;
    char xid_skip[48];
    snprintf(xid_skip, sizeof xid_skip, "FRAMESYNC_XID_SKIP=%u", (spawned++ % 1024u) * 512u);
    /* a fake client drives interactive resizes through the compositor's input path when it has
     * one (input-path.h): it gets the harness's end of it (the application under test does not) */
    int input_fd = under_test ? -1 : s->input_fd;
    char input[48], barrier[64];
    snprintf(input, sizeof input, "FRAMESYNC_INPUT_FD=%d", input_fd);
    snprintf(barrier, sizeof barrier, "FRAMESYNC_INPUT_BARRIER=%s", input_barrier_name(s->input_barrier));
    const char *env[] = {xid_skip, input_fd >= 0 ? input : NULL, input_fd >= 0 ? barrier : NULL, NULL};
    struct spawn_opts o = {.argv = argv, .env = env, .stdin_fd = in[0], .stdout_fd = out[1], .stderr_fd = efd,
                           .keep_fd = input_fd};
    char pname[64];
    snprintf(pname, sizeof pname, "client %s", name);
    c->proc = proc_spawn(pname, &o);
    close(in[0]);
    close(out[1]);
    if (efd >= 0)
        close(efd);
    if (!c->proc) {
        close(in[1]);
        close(out[0]);
        snprintf(err, len, "cannot start the fake client %s: %s", binary, strerror(errno));
        return -1;
    }
    c->in_fd = in[1];
    c->out_fd = out[0];
    fcntl(c->out_fd, F_SETFL, O_NONBLOCK);
    s->nclients++;
    int64_t deadline = clock_now_us() + (int64_t)timeout_ms * 1000;
    while (!session_find(s, name, "ready", NULL, NULL, true)) {
        if (c->eof || clock_now_us() >= deadline || proc_interrupted()) {
            snprintf(err, len, "fake client %s did not report `ready` within %d ms%s (its log: %s)",
                     name, timeout_ms, c->eof ? " and closed its output" : "", c->stderr_path);
            return -1;
        }
        session_pump(s, deadline, -1);
    }
    return 0;
}

static bool is_answer_to(void *ctx, const struct record *r)
{
    const char *cmd = record_get(r, "cmd");
    return cmd && !strcmp(cmd, (const char *)ctx);
}

/* `A set-counter 2 req.value`: a word NAME.FIELD of a bound record becomes the field's value. */
static int substitute(struct session *s, const char *line, char *out, size_t outlen, char *err, size_t len)
{
    char copy[2048];
    snprintf(copy, sizeof copy, "%s", line);
    size_t o = 0;
    out[0] = 0;
    char *save = NULL;
    for (char *w = strtok_r(copy, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
        const char *value = w;
        char num[32];
        const char *dot = strchr(w, '.');
        if (dot) {
            const struct record *r = session_lookup(s, w, (size_t)(dot - w));
            if (!r) {
                snprintf(err, len, "`%.*s` names no record (its wait did not run)", (int)(dot - w), w);
                return -1;
            }
            if (!strcmp(dot + 1, "t") || !strcmp(dot + 1, "seq")) {
                snprintf(num, sizeof num, "%lld", dot[1] == 't' ? (long long)(r->t_us - s->tl.start_us) : (long long)r->seq);
                value = num;
            } else if (!(value = record_get(r, dot + 1))) {
                snprintf(err, len, "the %s record has no field `%s`", r->kind, dot + 1);
                return -1;
            }
        }
        o += (size_t)snprintf(out + o, o < outlen ? outlen - o : 0, "%s%s", o ? " " : "", value);
    }
    return o < outlen ? 0 : -1;
}

const struct record *session_command(struct session *s, struct client *c, const char *command,
                                     int timeout_ms, char *err, size_t len)
{
    char line[2048];
    if (substitute(s, command, line, sizeof line, err, len) < 0)
        return NULL;
    char word[48];
    snprintf(word, sizeof word, "%.*s", (int)strcspn(line, " "), line);
    if (c->under_test && !s->app_commanded_at)
        s->app_commanded_at = s->tl.n; /* what it did before is what it does by itself at its start */
    size_t l = strlen(line);
    char *msg = malloc(l + 2);
    memcpy(msg, line, l);
    msg[l] = '\n';
    ssize_t w = write(c->in_fd, msg, l + 1); /* short lines into a pipe are written whole */
    free(msg);
    if (w != (ssize_t)(l + 1)) {
        snprintf(err, len, "cannot write to fake client %s: %s", c->name,
                 w < 0 ? strerror(errno) : "short write");
        return NULL;
    }
    int64_t deadline = clock_now_us() + (int64_t)timeout_ms * 1000;
    for (;;) {
        const struct record *done = session_find(s, c->name, "done", is_answer_to, word, true);
        const struct record *fail = session_find(s, c->name, "error", is_answer_to, word, true);
        if (done || fail)
            return done ? done : fail;
        if (c->eof || proc_interrupted() || clock_now_us() >= deadline) {
            snprintf(err, len, "fake client %s %s `%s` (its log: %s)", c->name,
                     c->eof ? "exited while doing" : "did not answer in time to", line, c->stderr_path);
            return NULL;
        }
        session_pump(s, deadline, -1);
    }
}

static struct cursor *cursor_for(struct session *s, const char *source, const char *kind, const char *subject)
{
    for (int i = 0; i < s->ncursors; i++)
        if (!strcmp(s->cursors[i].source, source) && !strcmp(s->cursors[i].kind, kind) &&
            !strcmp(s->cursors[i].subject, subject))
            return &s->cursors[i];
    if (s->ncursors == (int)(sizeof s->cursors / sizeof s->cursors[0]))
        return &s->cursors[s->ncursors - 1];
    struct cursor *c = &s->cursors[s->ncursors++];
    snprintf(c->source, sizeof c->source, "%s", source);
    snprintf(c->kind, sizeof c->kind, "%s", kind);
    snprintf(c->subject, sizeof c->subject, "%s", subject);
    c->seq = 0;
    return c;
}

const struct record *session_find(struct session *s, const char *source, const char *kind,
                                  record_match_fn match, void *ctx, bool take)
{
    return session_find_about(s, source, kind, NULL, match, ctx, take);
}

const struct record *session_find_about(struct session *s, const char *source, const char *kind,
                                        const char *subject, record_match_fn match, void *ctx, bool take)
{
    return session_find_from(s, source, kind, subject, -1, match, ctx, take);
}

const struct record *session_find_from(struct session *s, const char *source, const char *kind,
                                       const char *subject, int after_seq, record_match_fn match, void *ctx,
                                       bool take)
{
    struct cursor *cur = cursor_for(s, source, kind, subject ? subject : "");
    for (int i = after_seq >= 0 ? after_seq : cur->seq; i < s->tl.n; i++) {
        const struct record *r = s->tl.recs[i];
        if (strcmp(r->source, source) || strcmp(r->kind, kind))
            continue;
        if (match && !match(ctx, r))
            continue;
        if (take)
            cur->seq = r->seq; /* records are at index seq-1: the next search starts after it */
        return r;
    }
    return NULL;
}

void session_bind(struct session *s, const char *name, const struct record *r)
{
    for (int i = 0; i < s->nvars; i++)
        if (!strcmp(s->vars[i].name, name)) {
            s->vars[i].rec = r;
            return;
        }
    if (s->nvars < (int)(sizeof s->vars / sizeof s->vars[0]))
        s->vars[s->nvars++] = (struct binding){strdup(name), r};
}

const struct record *session_lookup(struct session *s, const char *name, size_t len)
{
    for (int i = 0; i < s->nvars; i++)
        if (strlen(s->vars[i].name) == len && !strncmp(s->vars[i].name, name, len))
            return s->vars[i].rec;
    return NULL;
}
