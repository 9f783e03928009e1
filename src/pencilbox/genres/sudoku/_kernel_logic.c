/* The hot loops of the human-style solver (logic/), compiled: the same answers as the
 * pure-Python loops they stand in for, in the same order (logic/compiled.py picks one or the
 * other; the tests run both).
 *
 *   propagate(n, values, cands) -> bool
 *       forcing.propagate: naked and hidden singles until none is left, written back into the
 *       two lists (placed digits, candidate masks); False on a contradiction.
 *   implications_all(nodes, weak, strong, groups, limit) -> [(on, off, bad, group), ...]
 *       forcing.implications from every node being true: the true and false sets (masks),
 *       the lowest node both true and false (-1: none) and, when there is none, the index of
 *       the first group all of whose nodes are false (-1: none).
 *   chain_scan(nodes, strong, weak, full_weak, present, size, base, mode, skip, start, limit)
 *       -> (next, s, [(e, path), ...]) | None
 *       chains.chains_from for the starts nodes[start:]: the ends of the first start that has
 *       any chain eliminating something (after the mode's filters), with their paths.
 *
 * Graphs come as Python dicts from a node to the int mask of its partners; a mask is turned into
 * an ascending list of nodes the first time a search reaches it (once per call).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "_kernel.h"

#define LOGIC_MAX_SIZE 25
#define LOGIC_MAX_CELLS (LOGIC_MAX_SIZE * LOGIC_MAX_SIZE)
#define LOGIC_MAX_PEERS (3 * LOGIC_MAX_SIZE)

/* -- ints as bitsets ------------------------------------------------------------------------ */

/* The set bits of a non-negative int below `limit`, ascending, into a malloc'ed array (NULL
 * when there are none); -1 with an exception on a negative int or a bit past the limit. */
static int mask_bits(PyObject *mask, Py_ssize_t limit, int **out, int *count)
{
    *out = NULL;
    *count = 0;
    if (!PyLong_Check(mask)) {
        PyErr_SetString(PyExc_TypeError, "a node mask must be an int");
        return -1;
    }
    int sign = _PyLong_Sign(mask);
    if (sign == 0)
        return 0;
    if (sign < 0) {
        PyErr_SetString(PyExc_ValueError, "a node mask must not be negative");
        return -1;
    }
    size_t nbits = _PyLong_NumBits(mask);
    if (nbits == (size_t)-1 && PyErr_Occurred())
        return -1;
    if ((Py_ssize_t)nbits > limit) {
        PyErr_SetString(PyExc_ValueError, "a node mask names a node past the limit");
        return -1;
    }
    size_t words = (nbits + 63) / 64;
    uint64_t *buf = calloc(words, sizeof(uint64_t));
    int *list = malloc(nbits * sizeof(int));
    if (!buf || !list) {
        free(buf);
        free(list);
        PyErr_NoMemory();
        return -1;
    }
#if PY_VERSION_HEX >= 0x030D0000
    int bad = _PyLong_AsByteArray((PyLongObject *)mask, (unsigned char *)buf, words * 8, 1, 0, 1);
#else
    int bad = _PyLong_AsByteArray((PyLongObject *)mask, (unsigned char *)buf, words * 8, 1, 0);
#endif
    if (bad) {
        free(buf);
        free(list);
        return -1;
    }
    int n = 0;
    for (size_t w = 0; w < words; w++) {
        uint64_t word = buf[w];
        while (word) {
            list[n++] = (int)(w * 64 + (size_t)__builtin_ctzll(word));
            word &= word - 1;
        }
    }
    free(buf);
    *out = list;
    *count = n;
    return 0;
}

/* An int with the bits of `nodes` set (scratch: `limit` bits of zeros, left zero after). */
static PyObject *nodes_mask(const int *nodes, int count, unsigned char *scratch, Py_ssize_t limit)
{
    if (!count)
        return PyLong_FromLong(0);
    int top = 0;
    for (int k = 0; k < count; k++) {
        scratch[nodes[k] >> 3] |= (unsigned char)(1u << (nodes[k] & 7));
        if (nodes[k] > top)
            top = nodes[k];
    }
    (void)limit;
    PyObject *out = _PyLong_FromByteArray(scratch, (size_t)top / 8 + 1, 1, 0);
    for (int k = 0; k < count; k++)
        scratch[nodes[k] >> 3] = 0;
    return out;
}

/* A graph's partners: a dict node -> mask, listed on first use. */
typedef struct {
    PyObject *dict;
    Py_ssize_t limit;
    int **lists;
    int *lens;
    uint8_t *done;
} Partners;

static int partners_init(Partners *p, PyObject *dict, Py_ssize_t limit)
{
    if (!PyDict_Check(dict)) {
        PyErr_SetString(PyExc_TypeError, "a graph's links must be a dict of int masks");
        return -1;
    }
    p->dict = dict;
    p->limit = limit;
    p->lists = calloc((size_t)limit, sizeof(int *));
    p->lens = calloc((size_t)limit, sizeof(int));
    p->done = calloc((size_t)limit, 1);
    if (!p->lists || !p->lens || !p->done) {
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}

static void partners_free(Partners *p)
{
    if (p->lists)
        for (Py_ssize_t k = 0; k < p->limit; k++)
            free(p->lists[k]);
    free(p->lists);
    free(p->lens);
    free(p->done);
}

/* The partners of `node` (a missing key has none); -1 with an exception. */
static int partners_of(Partners *p, int node, const int **list, int *len)
{
    if (node < 0 || node >= p->limit) {
        PyErr_SetString(PyExc_ValueError, "a node past the limit");
        return -1;
    }
    if (!p->done[node]) {
        PyObject *key = PyLong_FromLong(node);
        if (!key)
            return -1;
        PyObject *mask = PyDict_GetItemWithError(p->dict, key);
        Py_DECREF(key);
        if (!mask && PyErr_Occurred())
            return -1;
        if (mask && mask_bits(mask, p->limit, &p->lists[node], &p->lens[node]))
            return -1;
        p->done[node] = 1;
    }
    *list = p->lists[node];
    *len = p->lens[node];
    return 0;
}

/* The ints of a list (or other sequence) of ints; NULL with an exception. */
static int *int_list(PyObject *arg, Py_ssize_t *count, Py_ssize_t limit)
{
    PyObject *seq = PySequence_Fast(arg, "expected a sequence of ints");
    if (!seq)
        return NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    int *out = malloc(((size_t)n + 1) * sizeof(int));
    if (!out) {
        Py_DECREF(seq);
        PyErr_NoMemory();
        return NULL;
    }
    for (Py_ssize_t k = 0; k < n; k++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, k));
        if (v < 0 || v >= limit) {
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_ValueError, "a node past the limit");
            free(out);
            Py_DECREF(seq);
            return NULL;
        }
        out[k] = (int)v;
    }
    Py_DECREF(seq);
    *count = n;
    return out;
}

/* -- propagate ------------------------------------------------------------------------------ */

typedef struct {
    int ready, size, cells;
    int npeers[LOGIC_MAX_CELLS];
    int16_t peers[LOGIC_MAX_CELLS][LOGIC_MAX_PEERS];
    int16_t units[3 * LOGIC_MAX_SIZE][LOGIC_MAX_SIZE];
} Geo;

static Geo *geos[6];

/* Units as logic/state.py numbers them: rows, columns, boxes, each cell ascending. */
static const Geo *geo_of(int n)
{
    if (geos[n])
        return geos[n];
    Geo *g = calloc(1, sizeof(Geo));
    if (!g)
        return NULL;
    int size = n * n, cells = size * size;
    g->size = size;
    g->cells = cells;
    for (int u = 0; u < size; u++) {
        int k = 0;
        for (int c = 0; c < size; c++) {
            g->units[u][c] = (int16_t)(u * size + c);
            g->units[size + u][c] = (int16_t)(c * size + u);
        }
        for (int i = 0; i < cells; i++)
            if ((i / size / n) * n + (i % size) / n == u)
                g->units[2 * size + u][k++] = (int16_t)i;
    }
    for (int i = 0; i < cells; i++) {
        int r = i / size, c = i % size, b = (r / n) * n + c / n, k = 0;
        for (int j = 0; j < cells; j++) {
            int rj = j / size, cj = j % size;
            if (j != i && (rj == r || cj == c || (rj / n) * n + cj / n == b))
                g->peers[i][k++] = (int16_t)j;
        }
        g->npeers[i] = k;
    }
    g->ready = 1;
    geos[n] = g;
    return g;
}

static void place_digit(const Geo *g, uint8_t *values, uint32_t *cands, int i, uint32_t bit)
{
    values[i] = (uint8_t)(32 - __builtin_clz(bit));
    cands[i] = 0;
    for (int k = 0; k < g->npeers[i]; k++)
        cands[g->peers[i][k]] &= ~bit;
}

/* forcing.propagate, step for step: cells in order, then units in order, until a pass changes
 * nothing; 0 on a contradiction. */
static int propagate_singles(const Geo *g, uint8_t *values, uint32_t *cands)
{
    int size = g->size;
    uint32_t full = size == 32 ? 0xffffffffu : (1u << size) - 1;
    int changed = 1;
    while (changed) {
        changed = 0;
        for (int i = 0; i < g->cells; i++) {
            if (values[i])
                continue;
            uint32_t m = cands[i];
            if (!m)
                return 0;
            if (!(m & (m - 1))) {
                place_digit(g, values, cands, i, m);
                changed = 1;
            }
        }
        for (int u = 0; u < 3 * size; u++) {
            const int16_t *unit = g->units[u];
            uint32_t once = 0, twice = 0, placed = 0;
            for (int k = 0; k < size; k++) {
                int i = unit[k];
                if (values[i]) {
                    uint32_t b = 1u << (values[i] - 1);
                    if (placed & b)
                        return 0;
                    placed |= b;
                } else {
                    twice |= once & cands[i];
                    once |= cands[i];
                }
            }
            if ((once | placed) != full)
                return 0;
            uint32_t single = once & ~twice & ~placed;
            while (single) {
                uint32_t low = single & (~single + 1);
                single ^= low;
                for (int k = 0; k < size; k++) {
                    int i = unit[k];
                    if (cands[i] & low) {
                        place_digit(g, values, cands, i, low);
                        changed = 1;
                        break;
                    }
                }
            }
        }
    }
    return 1;
}

/* propagate(n, values, cands) -> bool */
PyObject *logic_propagate(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    if (nargs != 3 || !PyList_Check(args[1]) || !PyList_Check(args[2])) {
        PyErr_SetString(PyExc_TypeError, "propagate(n, values: list, cands: list)");
        return NULL;
    }
    long n = PyLong_AsLong(args[0]);
    if (n < 2 || n > 5) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError, "the box size n must be 2..5");
        return NULL;
    }
    const Geo *g = geo_of((int)n);
    if (!g)
        return PyErr_NoMemory();
    if (PyList_GET_SIZE(args[1]) != g->cells || PyList_GET_SIZE(args[2]) != g->cells) {
        PyErr_Format(PyExc_ValueError, "expected %d values and %d candidate masks", g->cells,
                     g->cells);
        return NULL;
    }
    uint8_t values[LOGIC_MAX_CELLS], values0[LOGIC_MAX_CELLS];
    uint32_t cands[LOGIC_MAX_CELLS], cands0[LOGIC_MAX_CELLS];
    uint32_t all = (1u << g->size) - 1;
    for (int i = 0; i < g->cells; i++) {
        long v = PyLong_AsLong(PyList_GET_ITEM(args[1], i));
        unsigned long m = PyLong_AsUnsignedLong(PyList_GET_ITEM(args[2], i));
        if (PyErr_Occurred())
            return NULL;
        if (v < 0 || v > g->size || m > all) {
            PyErr_SetString(PyExc_ValueError, "a value or candidate mask out of range");
            return NULL;
        }
        values[i] = values0[i] = (uint8_t)v;
        cands[i] = cands0[i] = (uint32_t)m;
    }
    int ok = propagate_singles(g, values, cands);
    for (int i = 0; i < g->cells; i++) {
        if (values[i] != values0[i] &&
            PyList_SetItem(args[1], i, PyLong_FromLong(values[i])) < 0)
            return NULL;
        if (cands[i] != cands0[i] &&
            PyList_SetItem(args[2], i, PyLong_FromUnsignedLong(cands[i])) < 0)
            return NULL;
    }
    return PyBool_FromLong(ok);
}

/* -- forcing chains ------------------------------------------------------------------------- */

typedef struct {
    int *data;
    int len, room;
} Ints;

static int ints_push(Ints *v, int x)
{
    if (v->len == v->room) {
        int room = v->room ? v->room * 2 : 64;
        int *more = realloc(v->data, (size_t)room * sizeof(int));
        if (!more) {
            PyErr_NoMemory();
            return -1;
        }
        v->data = more;
        v->room = room;
    }
    v->data[v->len++] = x;
    return 0;
}

/* implications_all(nodes, weak, strong, groups, limit) */
PyObject *logic_implications_all(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    if (nargs != 5 || !PyList_Check(args[3])) {
        PyErr_SetString(PyExc_TypeError,
                        "implications_all(nodes, weak, strong, groups: list, limit)");
        return NULL;
    }
    Py_ssize_t limit = PyLong_AsSsize_t(args[4]);
    if (limit < 1 || limit > 50000000) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError, "limit must be 1..5e7");
        return NULL;
    }
    PyObject *out = NULL;
    Py_ssize_t count = 0, ngroups = PyList_GET_SIZE(args[3]);
    int *nodes = NULL, *member_start = NULL, *members = NULL, *group_size = NULL;
    int *on_stamp = NULL, *off_stamp = NULL, *group_stamp = NULL, *group_count = NULL;
    unsigned char *scratch = NULL;
    Ints on = {0}, off = {0}, front_on = {0}, front_off = {0}, next_on = {0};
    Partners weak = {0}, strong = {0};
    int **glists = NULL;
    int *glens = NULL;
    nodes = int_list(args[0], &count, limit);
    if (!nodes || partners_init(&weak, args[1], limit) || partners_init(&strong, args[2], limit))
        goto done;
    /* each node's groups, in index order */
    glists = calloc((size_t)ngroups + 1, sizeof(int *));
    glens = calloc((size_t)ngroups + 1, sizeof(int));
    member_start = calloc((size_t)limit + 1, sizeof(int));
    group_size = calloc((size_t)ngroups + 1, sizeof(int));
    on_stamp = calloc((size_t)limit, sizeof(int));
    off_stamp = calloc((size_t)limit, sizeof(int));
    group_stamp = calloc((size_t)ngroups + 1, sizeof(int));
    group_count = calloc((size_t)ngroups + 1, sizeof(int));
    scratch = calloc((size_t)limit / 8 + 1, 1);
    if (!glists || !glens || !member_start || !group_size || !on_stamp || !off_stamp ||
        !group_stamp || !group_count || !scratch) {
        PyErr_NoMemory();
        goto done;
    }
    long total = 0;
    for (Py_ssize_t gi = 0; gi < ngroups; gi++) {
        if (mask_bits(PyList_GET_ITEM(args[3], gi), limit, &glists[gi], &glens[gi]))
            goto done;
        group_size[gi] = glens[gi];
        for (int k = 0; k < glens[gi]; k++)
            member_start[glists[gi][k] + 1]++;
        total += glens[gi];
    }
    for (Py_ssize_t x = 0; x < limit; x++)
        member_start[x + 1] += member_start[x];
    members = malloc(((size_t)total + 1) * sizeof(int));
    int *fill = calloc((size_t)limit, sizeof(int));
    if (!members || !fill) {
        free(fill);
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t gi = 0; gi < ngroups; gi++)
        for (int k = 0; k < glens[gi]; k++) {
            int x = glists[gi][k];
            members[member_start[x] + fill[x]++] = (int)gi;
        }
    free(fill);
    out = PyList_New(count);
    if (!out)
        goto done;
    for (Py_ssize_t k = 0; k < count; k++) {
        int gen = (int)k + 1, node = nodes[k], clash = 0;
        on.len = off.len = front_on.len = front_off.len = 0;
        on_stamp[node] = gen;
        if (ints_push(&on, node) || ints_push(&front_on, node))
            goto fail;
        while (front_on.len || front_off.len) {
            for (int a = 0; a < front_on.len; a++) {
                const int *ys;
                int ny;
                if (partners_of(&weak, front_on.data[a], &ys, &ny))
                    goto fail;
                for (int b = 0; b < ny; b++) {
                    int y = ys[b];
                    if (off_stamp[y] != gen) {
                        off_stamp[y] = gen;
                        if (ints_push(&off, y) || ints_push(&front_off, y))
                            goto fail;
                        clash |= on_stamp[y] == gen;
                    }
                }
            }
            next_on.len = 0;
            for (int a = 0; a < front_off.len; a++) {
                const int *ys;
                int ny;
                if (partners_of(&strong, front_off.data[a], &ys, &ny))
                    goto fail;
                for (int b = 0; b < ny; b++) {
                    int y = ys[b];
                    if (on_stamp[y] != gen) {
                        on_stamp[y] = gen;
                        if (ints_push(&on, y) || ints_push(&next_on, y))
                            goto fail;
                        clash |= off_stamp[y] == gen;
                    }
                }
            }
            Ints swap = front_on;
            front_on = next_on;
            next_on = swap;
            front_off.len = 0;
            if (clash)
                break;
        }
        int bad = -1, first = -1;
        for (int a = 0; a < on.len; a++)
            if (off_stamp[on.data[a]] == gen && (bad < 0 || on.data[a] < bad))
                bad = on.data[a];
        if (bad < 0)
            for (int a = 0; a < off.len; a++) {
                int x = off.data[a];
                for (int b = member_start[x]; b < member_start[x + 1]; b++) {
                    int gi = members[b];
                    if (group_stamp[gi] != gen) {
                        group_stamp[gi] = gen;
                        group_count[gi] = 0;
                    }
                    if (++group_count[gi] == group_size[gi] && (first < 0 || gi < first))
                        first = gi;
                }
            }
        PyObject *item = Py_BuildValue("(NNii)", nodes_mask(on.data, on.len, scratch, limit),
                                       nodes_mask(off.data, off.len, scratch, limit), bad, first);
        if (!item)
            goto fail;
        PyList_SET_ITEM(out, k, item);
    }
    goto done;
fail:
    Py_CLEAR(out);
done:
    if (glists)
        for (Py_ssize_t gi = 0; gi < ngroups; gi++)
            free(glists[gi]);
    free(glists);
    free(glens);
    free(nodes);
    free(member_start);
    free(members);
    free(group_size);
    free(on_stamp);
    free(off_stamp);
    free(group_stamp);
    free(group_count);
    free(scratch);
    free(on.data);
    free(off.data);
    free(front_on.data);
    free(front_off.data);
    free(next_on.data);
    partners_free(&weak);
    partners_free(&strong);
    return out;
}

/* -- chains --------------------------------------------------------------------------------- */

enum { CHAIN_X = 0, CHAIN_XY = 1, CHAIN_AIC = 2, CHAIN_GROUPED = 3 };

/* chain_scan(nodes, strong, weak, full_weak, present, size, base, mode, skip, start, limit) */
PyObject *logic_chain_scan(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    if (nargs != 11) {
        PyErr_SetString(PyExc_TypeError, "chain_scan(nodes, strong, weak, full_weak, present, "
                                         "size, base, mode, skip, start, limit)");
        return NULL;
    }
    long size = PyLong_AsLong(args[5]), base = PyLong_AsLong(args[6]),
         mode = PyLong_AsLong(args[7]);
    unsigned long long skip = PyLong_AsUnsignedLongLong(args[8]);
    Py_ssize_t start = PyLong_AsSsize_t(args[9]), limit = PyLong_AsSsize_t(args[10]);
    if (PyErr_Occurred())
        return NULL;
    if (size < 1 || size > 64 || mode < CHAIN_X || mode > CHAIN_GROUPED || start < 0 ||
        limit < 1 || limit > 50000000) {
        PyErr_SetString(PyExc_ValueError, "chain_scan: an argument out of range");
        return NULL;
    }
    PyObject *out = NULL;
    Py_ssize_t count = 0;
    int *nodes = NULL, *present = NULL, *on_par = NULL, *off_par = NULL;
    int *on_stamp = NULL, *off_stamp = NULL, *ws_stamp = NULL, *present_mark = NULL;
    int npresent = 0;
    Ints front = {0}, new_on = {0}, path = {0};
    Partners strong = {0}, weak = {0}, full_weak = {0};
    PyObject *ends = NULL;
    nodes = int_list(args[0], &count, limit);
    if (!nodes || partners_init(&strong, args[1], limit) ||
        partners_init(&weak, args[2], limit) || partners_init(&full_weak, args[3], limit) ||
        mask_bits(args[4], limit, &present, &npresent))
        goto done;
    on_par = malloc((size_t)limit * sizeof(int));
    off_par = malloc((size_t)limit * sizeof(int));
    on_stamp = calloc((size_t)limit, sizeof(int));
    off_stamp = calloc((size_t)limit, sizeof(int));
    ws_stamp = calloc((size_t)limit, sizeof(int));
    present_mark = calloc((size_t)limit, sizeof(int));
    if (!on_par || !off_par || !on_stamp || !off_stamp || !ws_stamp || !present_mark) {
        PyErr_NoMemory();
        goto done;
    }
    for (int a = 0; a < npresent; a++)
        present_mark[present[a]] = 1;
    for (Py_ssize_t k = start; k < count; k++) {
        int s = nodes[k], gen = (int)k + 1;
        const int *list;
        int len;
        if (partners_of(&strong, s, &list, &len))
            goto done;
        if (!len || (mode == CHAIN_X && (skip >> (s % size) & 1)))
            continue;
        if (partners_of(&full_weak, s, &list, &len))
            goto done;
        int nws = 0;
        for (int a = 0; a < len; a++)
            if (present_mark[list[a]] && list[a] != s) {
                ws_stamp[list[a]] = gen;
                nws++;
            }
        if (!nws)
            continue;
        ends = PyList_New(0);
        if (!ends)
            goto done;
        off_stamp[s] = gen;
        off_par[s] = -1;
        front.len = 0;
        if (ints_push(&front, s))
            goto done;
        int links = 0;
        while (front.len) {
            new_on.len = 0;
            for (int a = 0; a < front.len; a++) {
                if (partners_of(&strong, front.data[a], &list, &len))
                    goto done;
                for (int b = 0; b < len; b++) {
                    int y = list[b];
                    if (on_stamp[y] != gen) {
                        on_stamp[y] = gen;
                        on_par[y] = front.data[a];
                        if (ints_push(&new_on, y))
                            goto done;
                    }
                }
            }
            links++;
            for (int a = 0; links >= 3 && a < new_on.len; a++) {
                int e = new_on.data[a];
                if (e == s)
                    continue;
                if (partners_of(&full_weak, e, &list, &len))
                    goto done;
                int hit = 0;
                for (int b = 0; b < len && !hit; b++)
                    hit = ws_stamp[list[b]] == gen && list[b] != e;
                if (!hit)
                    continue;
                if (mode == CHAIN_XY && (e % size != s % size || e / size == s / size))
                    continue;
                if (mode == CHAIN_X && e / size == s / size)
                    continue;
                path.len = 0;
                int node = e, is_on = 1, grouped = 0;
                while (node >= 0) {
                    if (ints_push(&path, node))
                        goto done;
                    grouped |= node >= base;
                    node = is_on ? on_par[node] : off_par[node];
                    is_on = !is_on;
                }
                if (mode == CHAIN_GROUPED && !grouped)
                    continue;
                PyObject *tuple = PyTuple_New(path.len);
                if (!tuple)
                    goto done;
                for (int b = 0; b < path.len; b++)
                    PyTuple_SET_ITEM(tuple, b, PyLong_FromLong(path.data[path.len - 1 - b]));
                PyObject *item = Py_BuildValue("(iN)", e, tuple);
                if (!item || PyList_Append(ends, item) < 0) {
                    Py_XDECREF(item);
                    goto done;
                }
                Py_DECREF(item);
            }
            front.len = 0;
            for (int a = 0; a < new_on.len; a++) {
                int y = new_on.data[a];
                if (partners_of(&weak, y, &list, &len))
                    goto done;
                for (int b = 0; b < len; b++) {
                    int z = list[b];
                    if (off_stamp[z] != gen) {
                        off_stamp[z] = gen;
                        off_par[z] = y;
                        if (ints_push(&front, z))
                            goto done;
                    }
                }
            }
            links++;
        }
        if (PyList_GET_SIZE(ends)) {
            out = Py_BuildValue("(niO)", k + 1, s, ends);
            goto done;
        }
        Py_CLEAR(ends);
    }
    out = Py_NewRef(Py_None);
done:
    Py_XDECREF(ends);
    free(nodes);
    free(present);
    free(on_par);
    free(off_par);
    free(on_stamp);
    free(off_stamp);
    free(ws_stamp);
    free(present_mark);
    free(front.data);
    free(new_on.data);
    free(path.data);
    partners_free(&strong);
    partners_free(&weak);
    partners_free(&full_weak);
    return out;
}
