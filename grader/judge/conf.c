// grader/judge/conf.c — reads lab.conf files (see conf.h).
#include "conf.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab_kind.h"
#include "protocol.h"
#include "technique.h"
#include "../../kernels/conv_limits.h"

// The keys lab.conf may hold; `required` ones must be present.
static const struct conf_key {
    const char *name;   // key as written in lab.conf
    int required;       // 1: missing is an error
} conf_keys[] = {
    {"title", 1},   {"chapter", 0},   {"runner", 1},    {"kernel", 1},
    {"solution", 1}, {"technique", 1}, {"opb_model", 1}, {"timeout", 1},
    {"time_reps", 0}, {"rtol", 1},     {"atol", 1},      {"case", 1},
    {"points", 0},   {"interface", 0}, {"stencil", 0},   {"update", 0},
};
#define CONF_NKEYS (sizeof(conf_keys) / sizeof(conf_keys[0]))

// The stars a sweep lab may sweep, by radius: conf_stencils[r - 1] has radius r.
static const char *const conf_stencils[] = {"star7", "star13", NULL};

// Strips leading and trailing white space in place; returns the start.
static char *conf_trim(char *s)
{
    while (isspace((unsigned char)*s))
        s++;
    size_t n = strlen(s);
    while (n > 0 && isspace((unsigned char)s[n - 1]))
        s[--n] = '\0';
    return s;
}

// Parses a positive number; returns 0, or -1 if text is not one.
static int conf_number(const char *text, double *out)
{
    char *end = NULL;
    errno = 0;
    double v = strtod(text, &end);
    if (errno || end == text || *conf_trim(end) != '\0' || !(v > 0))
        return -1;
    *out = v;
    return 0;
}

// Copies text into a fixed field; returns -1 if it does not fit.
static int conf_copy(char *dst, size_t cap, const char *text)
{
    if (strlen(text) >= cap)
        return -1;
    strcpy(dst, text);
    return 0;
}

// Parses a grid size "N" (the cube N×N×N), "WxH" (an image: nz = 1) or
// "NXxNYxNZ": one, two or three whole numbers joined by 'x', nothing else;
// returns 0 or -1.
static int conf_parse_size(const char *tok, lab_case *out)
{
    unsigned long v[3];
    int n = 0;
    const char *p = tok;
    for (;;) {
        char *end = NULL;
        if (n == 3 || !isdigit((unsigned char)*p))
            return -1;
        v[n++] = strtoul(p, &end, 10);
        if (*end == '\0')
            break;
        if (*end != 'x')
            return -1;
        p = end + 1;
    }
    for (int d = 0; d < n; d++)
        if (v[d] == 0 || v[d] > 65536)
            return -1;
    out->nx = (unsigned int)v[0];
    out->ny = (unsigned int)(n >= 2 ? v[1] : v[0]);
    out->nz = (unsigned int)(n == 3 ? v[2] : n == 2 ? 1 : v[0]);
    out->axes = n;
    return 0;
}

int conf_parse_case(const char *value, lab_case *out, char *err, size_t errlen)
{
    char buf[512];
    char *save = NULL;
    memset(out, 0, sizeof(*out));
    if (conf_copy(buf, sizeof(buf), value) != 0) {
        snprintf(err, errlen, "case line too long");
        return -1;
    }
    char *tok = strtok_r(buf, " \t", &save);
    if (!tok || conf_parse_size(tok, out) != 0) {
        snprintf(err, errlen, "a case starts with a grid size, N, WxH or NXxNYxNZ (each 1..65536), got '%s'", tok ? tok : "");
        return -1;
    }
    while ((tok = strtok_r(NULL, " \t", &save)) != NULL) {
        char *eq = strchr(tok, '=');
        if (eq && !strncmp(tok, "group=", 6)) {  // the rubric's, not the runner's
            if (conf_copy(out->group, sizeof(out->group), eq + 1) != 0 || !eq[1]) {
                snprintf(err, errlen, "case group '%s' is empty or too long", eq + 1);
                return -1;
            }
        } else if (!strcmp(tok, "timed")) {
            out->timed = 1;
        } else if (!strcmp(tok, "noemu")) {
            out->noemu = 1;
        } else if (!strcmp(tok, "sync")) {
            out->sync = 1;
        } else if (eq && eq != tok && eq[1] != '\0' && out->nopts < CONF_MAX_OPTS) {
            *eq = '\0';
            if (conf_copy(out->opt_key[out->nopts], sizeof(out->opt_key[0]), tok) != 0 ||
                conf_copy(out->opt_value[out->nopts], sizeof(out->opt_value[0]), eq + 1) != 0) {
                snprintf(err, errlen, "case option '%s' is too long", tok);
                return -1;
            }
            out->nopts++;
        } else {
            snprintf(err, errlen, "unknown case word '%s' (expected timed, noemu, sync, group=NAME or key=value)", tok);
            return -1;
        }
    }
    if (!out->group[0])
        snprintf(out->group, sizeof(out->group), "%s", CONF_DEFAULT_GROUP);
    return 0;
}

// Reads a fraction option ("full_at=0.5") of a speed part; returns 0 or -1.
static int conf_fraction(const char *text, double *out)
{
    char *end = NULL;
    errno = 0;
    double v = strtod(text, &end);
    if (errno || end == text || *end != '\0' || !(v >= 0) || v > 4)
        return -1;
    *out = v;
    return 0;
}

int conf_parse_points(const char *value, rubric_part *out, char *err, size_t errlen)
{
    char buf[256], *save = NULL;
    memset(out, 0, sizeof(*out));
    if (conf_copy(buf, sizeof(buf), value) != 0) {
        snprintf(err, errlen, "points line too long");
        return -1;
    }
    char *name = strtok_r(buf, " \t", &save), *pts = name ? strtok_r(NULL, " \t", &save) : NULL;
    char *end = NULL;
    double p = pts ? strtod(pts, &end) : -1;
    if (!name || !pts || *end != '\0' || !(p >= 0) || p > 1000) {
        snprintf(err, errlen, "points takes a part and what it is worth (e.g. 'points = cases 6', 'points = technique 2', 'points = speed 2 full_at=0.5'), got '%s'", value);
        return -1;
    }
    if (conf_copy(out->name, sizeof(out->name), name) != 0) {
        snprintf(err, errlen, "rubric part name '%s' is too long", name);
        return -1;
    }
    out->points = p;
    out->kind = !strcmp(name, "technique") ? RUBRIC_TECHNIQUE : !strcmp(name, "speed") ? RUBRIC_SPEED : RUBRIC_CASES;
    out->full_at = -1;
    for (char *tok; (tok = strtok_r(NULL, " \t", &save)) != NULL;) {
        int against = !strcmp(tok, "against=solution") ? 1 : !strcmp(tok, "against=copy") ? 0 : -1;
        int ok = out->kind == RUBRIC_SPEED &&
                 ((!strncmp(tok, "full_at=", 8) && conf_fraction(tok + 8, &out->full_at) == 0) ||
                  (!strncmp(tok, "zero_at=", 8) && conf_fraction(tok + 8, &out->zero_at) == 0) || against >= 0);
        if (against >= 0)
            out->against_solution = against;
        if (!ok) {
            snprintf(err, errlen, "unknown or bad word '%s' on a points line (only speed takes full_at=F, zero_at=F and against=solution|copy: F is a fraction of the lab's solution's speed on the same GPU, or of the copy limit)", tok);
            return -1;
        }
    }
    if (out->kind == RUBRIC_SPEED && !(out->full_at > out->zero_at)) {
        snprintf(err, errlen, "points = speed needs full_at=F above zero_at (default 0): F is the fraction of the measured copy limit that earns full points");
        return -1;
    }
    return 0;
}

double conf_total_points(const lab_conf *c)
{
    double total = 0;
    for (int i = 0; i < c->nparts; i++)
        total += c->parts[i].points;
    return total;
}

// Checks the rubric against the cases (every case's group is worth points,
// every group has a case, no part twice); adds the default rubric (10
// points for the cases) when lab.conf has none. Returns 0, or -1 with err.
static int conf_check_rubric(lab_conf *c, char *err, size_t errlen)
{
    if (c->nparts == 0) {
        rubric_part def = {RUBRIC_CASES, CONF_DEFAULT_GROUP, 10, -1, 0, 0, 0};
        c->parts[c->nparts++] = def;
    }
    for (int i = 0; i < c->nparts; i++) {
        const rubric_part *p = &c->parts[i];
        int cases = 0;
        for (int j = 0; j < i; j++)
            if (!strcmp(c->parts[j].name, p->name)) {
                snprintf(err, errlen, "%s:%d: points for '%s' given twice", c->path, p->line, p->name);
                return -1;
            }
        for (int k = 0; k < c->ncases; k++)
            cases += !strcmp(c->cases[k].group, p->name);
        if (p->kind == RUBRIC_CASES && cases == 0) {
            snprintf(err, errlen, "%s:%d: points for group '%s', but no case line says group=%s", c->path, p->line, p->name, p->name);
            return -1;
        }
        if (p->kind == RUBRIC_SPEED) {
            int timed = 0;
            for (int k = 0; k < c->ncases; k++)
                timed += c->cases[k].timed;
            if (!timed) {
                snprintf(err, errlen, "%s:%d: points for speed, but no case is timed", c->path, p->line);
                return -1;
            }
        }
    }
    for (int k = 0; k < c->ncases; k++) {
        int found = 0;
        for (int i = 0; i < c->nparts; i++)
            found |= c->parts[i].kind == RUBRIC_CASES && !strcmp(c->parts[i].name, c->cases[k].group);
        if (!found) {
            snprintf(err, errlen, "%s:%d: case group '%s' is worth no points: add 'points = %s N'", c->path, c->cases[k].line, c->cases[k].group, c->cases[k].group);
            return -1;
        }
    }
    return 0;
}

// Checks the interface against the runner, sets its default (cube), and
// checks every case against the lab's kind (lab_kind_of: the cube interface
// takes one N, N×N×N cases only; the image interface width×height images
// with a filter radius r=1..CONV_MAX_RADIUS each). Returns 0, or -1 with err
// naming the file and line.
static int conf_check_kind(lab_conf *c, char *err, size_t errlen)
{
    if (c->interface_line && !lab_kind_runner_takes(c->runner, "interface")) {
        snprintf(err, errlen, "%s:%d: 'interface' is a key of the sweep labs (runner = sweep); the %s runner's host function is fixed by its own header", c->path, c->interface_line, c->runner);
        return -1;
    }
    if (!c->interface[0])
        snprintf(c->interface, sizeof(c->interface), "%s", lab_kind_default_value("interface"));
    const lab_kind *kind = lab_kind_of(c);
    if (!kind) {
        snprintf(err, errlen, "%s: no kind of lab has runner = %s with interface = %s and update = %s", c->path, c->runner, c->interface, c->update);
        return -1;
    }
    for (int k = 0; k < c->ncases; k++)
        if (kind->check_case(c, &c->cases[k], err, errlen) != 0)
            return -1;
    return 0;
}

// Sets the star's radius from the stencil key (star7 when none) and checks
// it against the runner and the interface: a wider star is a sweep of the
// cube interface (kernels/star13.h). Returns 0, or -1 with err naming the
// file and line.
static int conf_check_stencil(lab_conf *c, char *err, size_t errlen)
{
    if (!c->stencil[0])
        snprintf(c->stencil, sizeof(c->stencil), "%s", conf_stencils[0]);
    for (int r = 0; conf_stencils[r]; r++)
        if (!strcmp(c->stencil, conf_stencils[r]))
            c->star_radius = r + 1;
    const lab_kind *kind = lab_kind_of(c);
    if (c->stencil_line && !kind->star_radius_max) {
        snprintf(err, errlen, "%s:%d: 'stencil' is a key of the sweep labs (runner = sweep); the %s runner's stencil is fixed by its own header", c->path, c->stencil_line, c->runner);
        return -1;
    }
    if (c->star_radius > 1 && c->star_radius > kind->star_radius_max) {
        snprintf(err, errlen, "%s:%d: stencil = %s is graded on the cube interface only (%s(d_in, d_out, N), kernels/star13.h), not on interface = %s",
                 c->path, c->stencil_line, c->stencil, INTERFACE_CUBE_FUNCTION, c->interface);
        return -1;
    }
    return 0;
}

// Sets the update (jacobi when none) and checks it against the runner: the
// whole-solve labs' key. Returns 0, or -1 with err naming the file and line.
static int conf_check_update(lab_conf *c, char *err, size_t errlen)
{
    if (c->update_line && !lab_kind_runner_takes(c->runner, "update")) {
        snprintf(err, errlen, "%s:%d: 'update' is a key of the whole-solve labs (runner = jacobi); a sweep's stencil is its 'stencil' key", c->path, c->update_line);
        return -1;
    }
    if (!c->update[0])
        snprintf(c->update, sizeof(c->update), "%s", lab_kind_default_value("update"));
    return 0;
}

// Checks every case's key=value options against the lab's kind
// (its case_options): a word the kind does not take is a mistake in the
// file, named with its line, not a case the student fails. Returns 0 or -1.
static int conf_check_case_options(const lab_conf *c, char *err, size_t errlen)
{
    const char *const *known = lab_kind_of(c)->case_options;
    for (int k = 0; k < c->ncases; k++) {
        const lab_case *lc = &c->cases[k];
        for (int o = 0; o < lc->nopts; o++) {
            int ok = 0;
            for (int q = 0; known[q]; q++)
                ok |= !strcmp(lc->opt_key[o], known[q]);
            if (ok)
                continue;
            char list[128] = "";
            for (int q = 0; known[q]; q++) {
                size_t used = strlen(list);
                snprintf(list + used, sizeof(list) - used, "%s%s=", q ? ", " : "", known[q]);
            }
            snprintf(err, errlen, "%s:%d: unknown case option '%s=' (this lab's cases take %s, besides timed, noemu, sync and group=)",
                     c->path, lc->line, lc->opt_key[o], list[0] ? list : "no key=value option");
            return -1;
        }
    }
    return 0;
}

int conf_case_radius(const lab_case *c)
{
    const char *v = conf_case_opt(c, "r");
    char *end = NULL;
    long r = v ? strtol(v, &end, 10) : 0;
    return v && end && *end == '\0' && end != v && r >= 1 && r <= CONV_MAX_RADIUS ? (int)r : 0;
}

const char *conf_case_opt(const lab_case *c, const char *key)
{
    for (int i = 0; i < c->nopts; i++)
        if (!strcmp(c->opt_key[i], key))
            return c->opt_value[i];
    return NULL;
}

const char *conf_case_name(const lab_case *c, char *buf, size_t len)
{
    if (c->nx == c->ny && c->ny == c->nz && c->axes != 2)
        snprintf(buf, len, "N=%u", c->nx);
    else if (conf_case_radius(c))  // an image: its size and the filter's radius
        snprintf(buf, len, "%ux%u,r=%d", c->nx, c->ny, conf_case_radius(c));
    else if (c->nz == 1 && c->axes == 2)
        snprintf(buf, len, "%ux%u", c->nx, c->ny);
    else
        snprintf(buf, len, "%ux%ux%u", c->nx, c->ny, c->nz);
    return buf;
}

// The most values one key may take (the kinds' runners, interfaces or updates; the techniques).
#define CONF_MAX_VALUES 32

// The values runner, interface, stencil, update, technique and opb_model
// may take: the kinds of lab (lab_kind.h's table), the stars and the
// techniques (technique.h's table) the judge knows, written into list
// (NULL-terminated, CONF_MAX_VALUES).
static void conf_values_of(const char *key, const char **list)
{
    if (!strcmp(key, "stencil")) {
        for (int r = 0; r < CONF_MAX_VALUES && (list[r] = conf_stencils[r]); r++)
            ;
        return;
    }
    if (strcmp(key, "technique") != 0 && strcmp(key, "opb_model") != 0) {  // one model per technique
        lab_kind_values(key, list, CONF_MAX_VALUES);
        return;
    }
    int n = 0;
    for (; technique_at(n) && n < CONF_MAX_VALUES - 1; n++)
        list[n] = technique_at(n)->name;
    list[n] = NULL;
}

// 0 if value is one of list; otherwise -1 with err naming key and the list.
static int conf_one_of(const char *key, const char *value, const char *const *list, char *err, size_t errlen)
{
    char known[256] = "";
    for (int i = 0; list[i]; i++) {
        if (!strcmp(value, list[i]))
            return 0;
        size_t used = strlen(known);
        snprintf(known + used, sizeof(known) - used, "%s%s", i ? ", " : "", list[i]);
    }
    snprintf(err, errlen, "unknown %s '%s' (the kit knows: %s)", key, value, known);
    return -1;
}

// Stores the value of a key that names an entry of a list or table
// (runner, interface, stencil, update, technique, opb_model) in c. Returns
// 0, -1 with the problem in err, or 1 if key is none of them.
static int conf_set_name(lab_conf *c, const char *key, const char *value, char *err, size_t errlen)
{
    const struct {
        const char *key;   // the lab.conf key
        char *field;       // where its value goes
        size_t cap;        // the field's size
    } names[] = {{"runner", c->runner, sizeof(c->runner)},          {"interface", c->interface, sizeof(c->interface)},
                 {"stencil", c->stencil, sizeof(c->stencil)},       {"update", c->update, sizeof(c->update)},
                 {"technique", c->technique, sizeof(c->technique)}, {"opb_model", c->opb_model, sizeof(c->opb_model)}};
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
        const char *known[CONF_MAX_VALUES];
        if (strcmp(key, names[i].key) != 0)
            continue;
        conf_values_of(key, known);
        if (conf_one_of(key, value, known, err, errlen) != 0)
            return -1;
        if (conf_copy(names[i].field, names[i].cap, value) == 0)
            return 0;
        snprintf(err, errlen, "the value of '%s' is too long", key);
        return -1;
    }
    return 1;
}

// Stores one key's value in c; returns 0, or -1 with the problem in err.
static int conf_set(lab_conf *c, const char *key, const char *value, char *err, size_t errlen)
{
    int bad = 0, named = conf_set_name(c, key, value, err, errlen);
    double num = 0;
    if (named <= 0)
        return named;
    if (!strcmp(key, "title")) {
        bad = conf_copy(c->title, sizeof(c->title), value);
    } else if (!strcmp(key, "chapter")) {
        bad = conf_copy(c->chapter, sizeof(c->chapter), value);
    } else if (!strcmp(key, "kernel")) {
        bad = conf_copy(c->kernel, sizeof(c->kernel), value);
    } else if (!strcmp(key, "solution")) {
        bad = conf_copy(c->solution, sizeof(c->solution), value);
    } else if (!strcmp(key, "points")) {
        if (c->nparts == CONF_MAX_PARTS) {
            snprintf(err, errlen, "more than %d points lines", CONF_MAX_PARTS);
            return -1;
        }
        return conf_parse_points(value, &c->parts[c->nparts++], err, errlen);
    } else if (!strcmp(key, "case")) {
        if (c->ncases == CONF_MAX_CASES) {
            snprintf(err, errlen, "more than %d cases", CONF_MAX_CASES);
            return -1;
        }
        return conf_parse_case(value, &c->cases[c->ncases++], err, errlen);
    } else {  // the numeric keys
        if (conf_number(value, &num) != 0) {
            snprintf(err, errlen, "'%s' must be a positive number, got '%s'", key, value);
            return -1;
        }
        if (!strcmp(key, "timeout"))
            c->timeout_s = num;
        else if (!strcmp(key, "time_reps"))
            c->time_reps = (int)num;
        else if (!strcmp(key, "rtol"))
            c->rtol = num;
        else
            c->atol = num;
        if (!strcmp(key, "time_reps") && (num != (int)num || num > 10000)) {
            snprintf(err, errlen, "'time_reps' must be a whole number up to 10000, got '%s'", value);
            return -1;
        }
    }
    if (bad)
        snprintf(err, errlen, "the value of '%s' is too long", key);
    return bad ? -1 : 0;
}

// Finds key in conf_keys; returns its index or -1.
static int conf_key_index(const char *key)
{
    for (size_t i = 0; i < CONF_NKEYS; i++)
        if (!strcmp(conf_keys[i].name, key))
            return (int)i;
    return -1;
}

int conf_load(const char *path, lab_conf *c, char *err, size_t errlen)
{
    char line[1024], msg[512];
    int seen[CONF_NKEYS] = {0};
    int lineno = 0;
    FILE *f = fopen(path, "r");
    memset(c, 0, sizeof(*c));
    c->time_reps = 20;
    snprintf(c->path, sizeof(c->path), "%s", path);
    if (!f) {
        snprintf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
        return -1;
    }
    while (fgets(line, sizeof(line), f)) {
        lineno++;
        char *hash = strchr(line, '#');
        if (hash)
            *hash = '\0';
        char *text = conf_trim(line);
        if (*text == '\0')
            continue;
        char *eq = strchr(text, '=');
        if (!eq) {
            snprintf(err, errlen, "%s:%d: expected 'key = value', got '%s'", path, lineno, text);
            goto fail_close;
        }
        *eq = '\0';
        char *key = conf_trim(text), *value = conf_trim(eq + 1);
        int k = conf_key_index(key);
        if (k < 0) {
            snprintf(err, errlen, "%s:%d: unknown key '%s' (known: title, chapter, runner, interface, stencil, update, kernel, solution, technique, opb_model, timeout, time_reps, rtol, atol, case, points)", path, lineno, key);
            goto fail_close;
        }
        if (seen[k] && strcmp(key, "case") != 0 && strcmp(key, "points") != 0) {
            snprintf(err, errlen, "%s:%d: key '%s' given twice", path, lineno, key);
            goto fail_close;
        }
        if (*value == '\0') {
            snprintf(err, errlen, "%s:%d: key '%s' has no value", path, lineno, key);
            goto fail_close;
        }
        seen[k] = 1;
        if (conf_set(c, key, value, msg, sizeof(msg)) != 0) {
            snprintf(err, errlen, "%s:%d: %s", path, lineno, msg);
            if (!strcmp(key, "case"))
                c->ncases--;
            if (!strcmp(key, "points"))
                c->nparts--;
            goto fail_close;
        }
        if (!strcmp(key, "case"))
            c->cases[c->ncases - 1].line = lineno;
        if (!strcmp(key, "points"))
            c->parts[c->nparts - 1].line = lineno;
        if (!strcmp(key, "interface"))
            c->interface_line = lineno;
        if (!strcmp(key, "stencil"))
            c->stencil_line = lineno;
        if (!strcmp(key, "update"))
            c->update_line = lineno;
    }
    fclose(f);
    for (size_t i = 0; i < CONF_NKEYS; i++)
        if (conf_keys[i].required && !seen[i]) {
            snprintf(err, errlen, "%s: missing key '%s'", path, conf_keys[i].name);
            return -1;
        }
    if (conf_check_kind(c, err, errlen) != 0 || conf_check_stencil(c, err, errlen) != 0 ||
        conf_check_update(c, err, errlen) != 0 || conf_check_case_options(c, err, errlen) != 0)
        return -1;
    return conf_check_rubric(c, err, errlen);

fail_close:
    fclose(f);
    return -1;
}

int conf_get(const lab_conf *c, const char *key, char *out, size_t len)
{
    const struct {
        const char *key;   // the lab.conf key
        const char *text;  // its value, when text
    } texts[] = {{"title", c->title},           {"chapter", c->chapter},     {"runner", c->runner},       {"kernel", c->kernel},
                 {"solution", c->solution},     {"technique", c->technique}, {"opb_model", c->opb_model}, {"interface", c->interface},
                 {"stencil", c->stencil},       {"update", c->update}};
    for (size_t t = 0; t < sizeof(texts) / sizeof(texts[0]); t++)
        if (!strcmp(key, texts[t].key))
            return snprintf(out, len, "%s", texts[t].text), 0;
    if (!strcmp(key, "timeout"))
        return snprintf(out, len, "%g", c->timeout_s), 0;
    if (!strcmp(key, "time_reps"))
        return snprintf(out, len, "%d", c->time_reps), 0;
    if (!strcmp(key, "rtol"))
        return snprintf(out, len, "%g", c->rtol), 0;
    if (!strcmp(key, "atol"))
        return snprintf(out, len, "%g", c->atol), 0;
    if (!strcmp(key, "points"))
        return snprintf(out, len, "%g", conf_total_points(c)), 0;
    int largest = -1;  // "largest": the case of most points that every backend runs (no noemu)
    for (int k = 0; k < c->ncases; k++)
        if (!c->cases[k].noemu && (largest < 0 || (double)c->cases[k].nx * c->cases[k].ny * c->cases[k].nz >
                                                      (double)c->cases[largest].nx * c->cases[largest].ny * c->cases[largest].nz))
            largest = k;
    if (!strcmp(key, "timed") || !strcmp(key, "largest")) {
        int want_timed = !strcmp(key, "timed");
        out[0] = '\0';
        for (int k = 0; k < c->ncases; k++) {
            const lab_case *lc = &c->cases[k];
            size_t used = strlen(out);
            if (want_timed ? !lc->timed : k != largest)
                continue;
            if (lc->axes == 1)
                snprintf(out + used, len - used, "%s%u", used ? " " : "", lc->nx);
            else if (lc->axes == 2)
                snprintf(out + used, len - used, "%s%ux%u", used ? " " : "", lc->nx, lc->ny);
            else
                snprintf(out + used, len - used, "%s%ux%ux%u", used ? " " : "", lc->nx, lc->ny, lc->nz);
        }
        return 0;
    }
    snprintf(out, len, "title chapter runner kernel solution technique opb_model interface stencil update timeout time_reps rtol atol timed largest points");
    return -1;
}
