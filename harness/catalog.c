#include "catalog.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct catalog *current;

void catalog_set_current(const struct catalog *cat) { current = cat; }
bool catalog_current_knows(const char *id) { return current && catalog_find(current, id); }

const struct clause *catalog_find(const struct catalog *cat, const char *id)
{
    for (int i = 0; i < cat->n; i++)
        if (!strcmp(cat->clauses[i].id, id))
            return &cat->clauses[i];
    return NULL;
}

static char **field_slot(struct clause *c, const char *key)
{
    if (!strcmp(key, "clause")) return &c->id;
    if (!strcmp(key, "profiles")) return &c->profiles;
    if (!strcmp(key, "section")) return &c->section;
    if (!strcmp(key, "keyword")) return &c->keyword;
    if (!strcmp(key, "binds")) return &c->binds;
    if (!strcmp(key, "testable")) return &c->testable;
    if (!strcmp(key, "wording")) return &c->wording;
    if (!strcmp(key, "note")) return &c->note;
    return NULL;
}

static void append(char **slot, const char *text)
{
    if (!*slot) {
        *slot = strdup(text);
        return;
    }
    size_t a = strlen(*slot), b = strlen(text);
    *slot = realloc(*slot, a + b + 2);
    (*slot)[a] = ' ';
    memcpy(*slot + a + 1, text, b + 1);
}

static int check_record(const struct catalog *cat, const char *path, char *err, size_t errlen)
{
    const struct clause *c = &cat->clauses[cat->n - 1];
    const char *missing = !c->id ? "clause" : !c->profiles ? "profiles" : !c->keyword ? "keyword"
                          : !c->binds ? "binds" : !c->testable ? "testable" : !c->wording ? "wording"
                          : NULL;
    if (missing) {
        snprintf(err, errlen, "%s:%d: clause record without `%s:`", path, c->line, missing);
        return -1;
    }
    for (int i = 0; i < cat->n - 1; i++)
        if (!strcmp(cat->clauses[i].id, c->id)) {
            snprintf(err, errlen, "%s:%d: clause `%s` listed twice (first at line %d)", path,
                     c->line, c->id, cat->clauses[i].line);
            return -1;
        }
    return 0;
}

int catalog_load(struct catalog *cat, const char *path, char *err, size_t errlen)
{
    memset(cat, 0, sizeof *cat);
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(err, errlen, "%s: cannot read the clause catalog: %s", path, strerror(errno));
        return -1;
    }
    char line[4096];
    int lineno = 0, rc = 0;
    bool in_record = false;
    char **last = NULL;
    while (rc == 0 && fgets(line, sizeof line, f)) {
        lineno++;
        line[strcspn(line, "\n")] = 0;
        if (line[0] == '#')
            continue;
        char *t = line;
        while (isspace((unsigned char)*t))
            t++;
        if (!*t) { /* blank: end of a record */
            if (in_record)
                rc = check_record(cat, path, err, errlen);
            in_record = false;
            last = NULL;
            continue;
        }
        if (t != line) { /* continuation of the previous field */
            if (!last) {
                snprintf(err, errlen, "%s:%d: indented line without a field before it", path, lineno);
                rc = -1;
            } else
                append(last, t);
            continue;
        }
        char *colon = strchr(line, ':');
        if (!colon) {
            snprintf(err, errlen, "%s:%d: expected `field: value`", path, lineno);
            rc = -1;
            break;
        }
        *colon = 0;
        char *value = colon + 1;
        while (isspace((unsigned char)*value))
            value++;
        if (!in_record) {
            cat->clauses = realloc(cat->clauses, (size_t)(cat->n + 1) * sizeof *cat->clauses);
            memset(&cat->clauses[cat->n], 0, sizeof cat->clauses[0]);
            cat->clauses[cat->n].line = lineno;
            cat->n++;
            in_record = true;
        }
        last = field_slot(&cat->clauses[cat->n - 1], line);
        if (!last) {
            snprintf(err, errlen, "%s:%d: unknown field `%s:` (expected clause, profiles, section, "
                     "keyword, binds, testable, wording, note)", path, lineno, line);
            rc = -1;
        } else if (*last) {
            snprintf(err, errlen, "%s:%d: field `%s:` given twice in one record", path, lineno, line);
            rc = -1;
        } else
            *last = strdup(value);
    }
    fclose(f);
    if (rc == 0 && in_record)
        rc = check_record(cat, path, err, errlen);
    if (rc < 0)
        catalog_free(cat);
    return rc;
}

void catalog_free(struct catalog *cat)
{
    for (int i = 0; i < cat->n; i++) {
        struct clause *c = &cat->clauses[i];
        free(c->id); free(c->profiles); free(c->section); free(c->keyword);
        free(c->binds); free(c->testable); free(c->wording); free(c->note);
    }
    free(cat->clauses);
    memset(cat, 0, sizeof *cat);
}

enum level catalog_level(const struct catalog *cat, const char *id)
{
    if (!strcmp(id, "compositor/crash") || !strcmp(id, "client/crash"))
        return LEVEL_DEFECT;
    const struct clause *cl = cat ? catalog_find(cat, id) : NULL;
    return level_of_keyword(cl ? cl->keyword : NULL);
}
