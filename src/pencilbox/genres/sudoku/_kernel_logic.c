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

/* -- almost locked sets --------------------------------------------------------------------- */

/* The words of a non-negative int (little-endian, `words` of them); -1 with an exception. */
static int int_words(PyObject *value, uint64_t *out, Py_ssize_t words)
{
    if (!PyLong_Check(value) || _PyLong_Sign(value) < 0) {
        PyErr_SetString(PyExc_ValueError, "expected a non-negative int");
        return -1;
    }
#if PY_VERSION_HEX >= 0x030D0000
    return _PyLong_AsByteArray((PyLongObject *)value, (unsigned char *)out, (size_t)words * 8, 1,
                               0, 1);
#else
    return _PyLong_AsByteArray((PyLongObject *)value, (unsigned char *)out, (size_t)words * 8, 1,
                               0);
#endif
}

/* als_rcc(packed, size, words, digit_cells) -> {a: {b: digits}}: als.rcc_map from each ALS's
 * packed masks (cells, then `where` and `seen` per digit, `words` uint64s each), with the dicts
 * filled in the same order as the Python loops fill them. */
PyObject *logic_als_rcc(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    if (nargs != 4 || !PyList_Check(args[0]) || !PyList_Check(args[3])) {
        PyErr_SetString(PyExc_TypeError, "als_rcc(packed: list, size, words, digit_cells: list)");
        return NULL;
    }
    long size = PyLong_AsLong(args[1]), words = PyLong_AsLong(args[2]);
    Py_ssize_t count = PyList_GET_SIZE(args[0]);
    if (PyErr_Occurred())
        return NULL;
    if (size < 1 || size > 64 || words < 1 || words > 64 || PyList_GET_SIZE(args[3]) != size) {
        PyErr_SetString(PyExc_ValueError, "als_rcc: an argument out of range");
        return NULL;
    }
    Py_ssize_t stride = (1 + 2 * size) * words, ncells = words * 64;
    PyObject *out = NULL, **inner = NULL;
    uint64_t *data = NULL, *digit_cells = NULL;
    int *own_start = NULL, *own = NULL, *fill = NULL;
    data = malloc(((size_t)count * stride + 1) * sizeof(uint64_t));
    digit_cells = calloc((size_t)size * words, sizeof(uint64_t));
    inner = calloc((size_t)count + 1, sizeof(PyObject *));
    own_start = calloc((size_t)size * ncells + 1, sizeof(int));
    own = malloc(((size_t)count * size + 1) * sizeof(int));
    fill = calloc((size_t)size * ncells + 1, sizeof(int));
    if (!data || !digit_cells || !inner || !own_start || !own || !fill) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t k = 0; k < count; k++) {
        PyObject *blob = PyList_GET_ITEM(args[0], k);
        if (!PyBytes_Check(blob) || PyBytes_GET_SIZE(blob) != stride * 8) {
            PyErr_SetString(PyExc_ValueError, "als_rcc: a packed ALS of the wrong length");
            goto done;
        }
        memcpy(data + k * stride, PyBytes_AS_STRING(blob), (size_t)stride * 8);
    }
    for (long d = 0; d < size; d++)
        if (int_words(PyList_GET_ITEM(args[3], d), digit_cells + d * words, words))
            goto done;
#define MASK(k) (data + (k) * stride)
#define WHERE(k, d) (data + (k) * stride + (1 + (d)) * words)
#define SEEN(k, d) (data + (k) * stride + (1 + size + (d)) * words)
    /* own: per digit and cell, the ALS whose first cell holding the digit is that cell */
    int *lowest = malloc(((size_t)count * size + 1) * sizeof(int));
    if (!lowest) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t k = 0; k < count; k++)
        for (long d = 0; d < size; d++) {
            const uint64_t *w = WHERE(k, d);
            int low = -1;
            for (long j = 0; j < words && low < 0; j++)
                if (w[j])
                    low = (int)(j * 64 + __builtin_ctzll(w[j]));
            lowest[k * size + d] = low;
            if (low >= 0)
                own_start[d * ncells + low + 1]++;
        }
    for (Py_ssize_t x = 0; x < size * ncells; x++)
        own_start[x + 1] += own_start[x];
    for (Py_ssize_t k = 0; k < count; k++)
        for (long d = 0; d < size; d++) {
            int low = lowest[k * size + d];
            if (low >= 0) {
                Py_ssize_t at = d * ncells + low;
                own[own_start[at] + fill[at]++] = (int)k;
            }
        }
    free(lowest);
    out = PyDict_New();
    if (!out)
        goto done;
    for (long x0 = 0; x0 < size; x0++) {
        const uint64_t *cells_x = digit_cells + x0 * words;
        for (Py_ssize_t ia = 0; ia < count; ia++) {
            const uint64_t *wa = WHERE(ia, x0), *sa = SEEN(ia, x0), *ma = MASK(ia);
            int holds = 0;
            for (long j = 0; j < words; j++)
                holds |= wa[j] != 0;
            if (!holds)
                continue;
            for (long j = 0; j < words; j++) {
                uint64_t reach = sa[j] & cells_x[j] & ~ma[j];
                while (reach) {
                    int c = (int)(j * 64 + __builtin_ctzll(reach));
                    reach &= reach - 1;
                    Py_ssize_t at = x0 * ncells + c;
                    for (int o = own_start[at]; o < own_start[at + 1]; o++) {
                        int ib = own[o];
                        const uint64_t *mb = MASK(ib), *wb = WHERE(ib, x0);
                        int clash = 0;
                        for (long t = 0; t < words && !clash; t++)
                            clash = (ma[t] & mb[t]) || (wb[t] & ~sa[t]);
                        if (clash)
                            continue;
                        if (!inner[ia]) {
                            PyObject *key = PyLong_FromSsize_t(ia);
                            inner[ia] = PyDict_New();
                            if (!key || !inner[ia] || PyDict_SetItem(out, key, inner[ia]) < 0) {
                                Py_XDECREF(key);
                                Py_CLEAR(out);
                                goto done;
                            }
                            Py_DECREF(key);
                        }
                        PyObject *kb = PyLong_FromLong(ib);
                        if (!kb) {
                            Py_CLEAR(out);
                            goto done;
                        }
                        PyObject *old = PyDict_GetItemWithError(inner[ia], kb);
                        long had = old ? PyLong_AsLong(old) : 0;
                        PyObject *now = PyLong_FromLong(had | (1L << x0));
                        if (!now || PyDict_SetItem(inner[ia], kb, now) < 0) {
                            Py_DECREF(kb);
                            Py_XDECREF(now);
                            Py_CLEAR(out);
                            goto done;
                        }
                        Py_DECREF(kb);
                        Py_DECREF(now);
                    }
                }
            }
        }
    }
#undef MASK
#undef WHERE
#undef SEEN
done:
    if (inner)
        for (Py_ssize_t k = 0; k < count; k++)
            Py_XDECREF(inner[k]);
    free(inner);
    free(data);
    free(digit_cells);
    free(own_start);
    free(own);
    free(fill);
    return out;
}

/* The packed ALS of a list into one array (`stride` words each); NULL with an exception. */
static uint64_t *load_packed(PyObject *list, Py_ssize_t stride)
{
    Py_ssize_t count = PyList_GET_SIZE(list);
    uint64_t *data = malloc(((size_t)count * stride + 1) * sizeof(uint64_t));
    if (!data) {
        PyErr_NoMemory();
        return NULL;
    }
    for (Py_ssize_t k = 0; k < count; k++) {
        PyObject *blob = PyList_GET_ITEM(list, k);
        if (!PyBytes_Check(blob) || PyBytes_GET_SIZE(blob) != stride * 8) {
            PyErr_SetString(PyExc_ValueError, "a packed ALS of the wrong length");
            free(data);
            return NULL;
        }
        memcpy(data + k * stride, PyBytes_AS_STRING(blob), (size_t)stride * 8);
    }
    return data;
}

/* The digits' cell masks as `words` words each; NULL with an exception. */
static uint64_t *load_digit_cells(PyObject *list, long size, long words)
{
    uint64_t *out = calloc((size_t)size * words + 1, sizeof(uint64_t));
    if (!out) {
        PyErr_NoMemory();
        return NULL;
    }
    for (long d = 0; d < size; d++)
        if (int_words(PyList_GET_ITEM(list, d), out + d * words, words)) {
            free(out);
            return NULL;
        }
    return out;
}

/* The (a, b, digits) entries of an rcc map as sorted by (a, b), or in the dicts' own order. */
typedef struct {
    long a, b, digits;
} Link;

static int link_order(const void *x, const void *y)
{
    const Link *p = x, *q = y;
    if (p->a != q->a)
        return p->a < q->a ? -1 : 1;
    return (p->b > q->b) - (p->b < q->b);
}

static Link *rcc_links(PyObject *rcc, Py_ssize_t count, Py_ssize_t *nlinks)
{
    if (!PyDict_Check(rcc)) {
        PyErr_SetString(PyExc_TypeError, "the rcc map must be a dict of dicts");
        return NULL;
    }
    Py_ssize_t room = 64, n = 0, pos = 0;
    Link *links = malloc((size_t)room * sizeof(Link));
    PyObject *ka, *inner;
    while (links && PyDict_Next(rcc, &pos, &ka, &inner)) {
        if (!PyDict_Check(inner)) {
            PyErr_SetString(PyExc_TypeError, "the rcc map must be a dict of dicts");
            free(links);
            return NULL;
        }
        long a = PyLong_AsLong(ka);
        Py_ssize_t pos2 = 0;
        PyObject *kb, *digits;
        while (PyDict_Next(inner, &pos2, &kb, &digits)) {
            if (n == room) {
                room *= 2;
                Link *more = realloc(links, (size_t)room * sizeof(Link));
                if (!more) {
                    free(links);
                    links = NULL;
                    break;
                }
                links = more;
            }
            long b = PyLong_AsLong(kb), d = PyLong_AsLong(digits);
            if (PyErr_Occurred() || a < 0 || b < 0 || a >= count || b >= count || d <= 0) {
                if (!PyErr_Occurred())
                    PyErr_SetString(PyExc_ValueError, "an rcc map entry out of range");
                free(links);
                return NULL;
            }
            links[n++] = (Link){a, b, d};
        }
    }
    if (!links) {
        PyErr_NoMemory();
        return NULL;
    }
    *nlinks = n;
    return links;
}

/* Whether a & b & c & d & ~e is not empty, over `words` words (NULL c: all ones). */
static int any_and(const uint64_t *a, const uint64_t *b, const uint64_t *c, const uint64_t *d,
                   const uint64_t *e1, const uint64_t *e2, const uint64_t *e3, long words)
{
    for (long j = 0; j < words; j++) {
        uint64_t x = a[j] & d[j] & ~e1[j] & ~e2[j];
        if (b)
            x &= b[j];
        if (c)
            x &= c[j];
        if (e3)
            x &= ~e3[j];
        if (x)
            return 1;
    }
    return 0;
}

static int holds(const uint64_t *w, long words)
{
    for (long j = 0; j < words; j++)
        if (w[j])
            return 1;
    return 0;
}

/* als_scan(packed, size, words, digit_cells, rcc, kind) -> [...]: the candidates of als.py's
 * searches that eliminate something, in the order the Python loops meet them:
 *   kind 0, ALS-XZ: (a, b) pairs, a <= b, sorted;
 *   kind 1, ALS-XY-Wing: (c, a, b, x, y) with pivot c in the map's order, its partners a < b
 *   sorted, x and y their restricted commons (digit indices) ascending. */
PyObject *logic_als_scan(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    if (nargs != 6 || !PyList_Check(args[0]) || !PyList_Check(args[3])) {
        PyErr_SetString(PyExc_TypeError,
                        "als_scan(packed: list, size, words, digit_cells: list, rcc, kind)");
        return NULL;
    }
    long size = PyLong_AsLong(args[1]), words = PyLong_AsLong(args[2]),
         kind = PyLong_AsLong(args[5]);
    Py_ssize_t count = PyList_GET_SIZE(args[0]);
    if (PyErr_Occurred())
        return NULL;
    if (size < 1 || size > 64 || words < 1 || words > 64 || PyList_GET_SIZE(args[3]) != size ||
        kind < 0 || kind > 1) {
        PyErr_SetString(PyExc_ValueError, "als_scan: an argument out of range");
        return NULL;
    }
    Py_ssize_t stride = (1 + 2 * size) * words, nlinks = 0;
    PyObject *out = NULL;
    uint64_t *data = load_packed(args[0], stride);
    uint64_t *cells = data ? load_digit_cells(args[3], size, words) : NULL;
    Link *links = cells ? rcc_links(args[4], count, &nlinks) : NULL;
    if (!links)
        goto done;
    out = PyList_New(0);
    if (!out)
        goto done;
#define MASK(k) (data + (k) * stride)
#define WHERE(k, d) (data + (k) * stride + (1 + (d)) * words)
#define SEEN(k, d) (data + (k) * stride + (1 + size + (d)) * words)
#define DCELLS(d) (cells + (d) * words)
    if (kind == 0) {
        qsort(links, (size_t)nlinks, sizeof(Link), link_order);
        for (Py_ssize_t k = 0; k < nlinks; k++) {
            long ia = links[k].a, ib = links[k].b, r = links[k].digits;
            if (ib < ia)
                continue;
            const uint64_t *ma = MASK(ia), *mb = MASK(ib);
            int doubly = __builtin_popcountl((unsigned long)r) >= 2, hit = 0;
            for (long d = 0; d < size && !hit; d++) {
                int in_a = holds(WHERE(ia, d), words), in_b = holds(WHERE(ib, d), words);
                int linking = (int)(r >> d & 1);
                if (in_a && in_b && (!linking || doubly))
                    hit = any_and(SEEN(ia, d), SEEN(ib, d), NULL, DCELLS(d), ma, mb, NULL, words);
                if (!hit && doubly && !linking && in_a)
                    hit = any_and(SEEN(ia, d), NULL, NULL, DCELLS(d), ma, mb, NULL, words);
                if (!hit && doubly && !linking && in_b)
                    hit = any_and(SEEN(ib, d), NULL, NULL, DCELLS(d), ma, mb, NULL, words);
            }
            if (hit) {
                PyObject *item = Py_BuildValue("(ll)", ia, ib);
                if (!item || PyList_Append(out, item) < 0) {
                    Py_XDECREF(item);
                    Py_CLEAR(out);
                    goto done;
                }
                Py_DECREF(item);
            }
        }
    } else {
        /* pivots in the map's order, each one's partners sorted */
        for (Py_ssize_t lo = 0; lo < nlinks;) {
            Py_ssize_t hi = lo;
            while (hi < nlinks && links[hi].a == links[lo].a)
                hi++;
            qsort(links + lo, (size_t)(hi - lo), sizeof(Link), link_order);
            long ic = links[lo].a;
            for (Py_ssize_t p = lo; p < hi; p++)
                for (Py_ssize_t q = p + 1; q < hi; q++) {
                    long ia = links[p].b, ib = links[q].b, xa = links[p].digits,
                         xb = links[q].digits;
                    const uint64_t *ma = MASK(ia), *mb = MASK(ib), *mc = MASK(ic);
                    int overlap = 0;
                    for (long j = 0; j < words; j++)
                        overlap |= (ma[j] & mb[j]) != 0;
                    if (overlap || __builtin_popcountl((unsigned long)(xa | xb)) < 2)
                        continue;
                    long both = 0;
                    for (long d = 0; d < size; d++)
                        if (holds(WHERE(ia, d), words) && holds(WHERE(ib, d), words))
                            both |= 1L << d;
                    if (!both)
                        continue;
                    for (long x0 = 0; x0 < size; x0++) {
                        if (!(xa >> x0 & 1))
                            continue;
                        for (long y0 = 0; y0 < size; y0++) {
                            if (!(xb >> y0 & 1) || y0 == x0)
                                continue;
                            long common = both & ~(1L << x0) & ~(1L << y0);
                            int hit = 0;
                            for (long z = 0; z < size && !hit; z++)
                                if (common >> z & 1)
                                    hit = any_and(SEEN(ia, z), SEEN(ib, z), NULL, DCELLS(z), ma,
                                                  mb, mc, words);
                            if (!hit)
                                continue;
                            PyObject *item = Py_BuildValue("(lllll)", ic, ia, ib, x0, y0);
                            if (!item || PyList_Append(out, item) < 0) {
                                Py_XDECREF(item);
                                Py_CLEAR(out);
                                goto done;
                            }
                            Py_DECREF(item);
                        }
                    }
                }
            lo = hi;
        }
    }
#undef MASK
#undef WHERE
#undef SEEN
#undef DCELLS
done:
    free(data);
    free(cells);
    free(links);
    return out;
}

/* -- Sue de Coq ----------------------------------------------------------------------------- */

typedef struct {
    int cells[4]; /* cell ids */
    int count;
    uint32_t digits;
} Subset;

/* Every subset of 1..4 of `cells` (cell ids, `cands` their masks), k by k, each k in
 * itertools.combinations order: sdc.py's _all_subsets. */
static Subset *all_subsets(const int *cells, const uint32_t *masks, int n, int *count)
{
    int room = 1, top = n < 4 ? n : 4;
    for (int k = 1; k <= top; k++) {
        long c = 1;
        for (int j = 0; j < k; j++)
            c = c * (n - j) / (j + 1);
        room += (int)c;
    }
    Subset *out = malloc((size_t)room * sizeof(Subset));
    if (!out)
        return NULL;
    int m = 0, idx[4];
    for (int k = 1; k <= top; k++) {
        for (int j = 0; j < k; j++)
            idx[j] = j;
        for (;;) {
            Subset s = {.count = k};
            for (int j = 0; j < k; j++) {
                s.cells[j] = cells[idx[j]];
                s.digits |= masks[idx[j]];
            }
            out[m++] = s;
            int j = k - 1;
            while (j >= 0 && idx[j] == n - k + j)
                j--;
            if (j < 0)
                break;
            idx[j]++;
            for (int t = j + 1; t < k; t++)
                idx[t] = idx[t - 1] + 1;
        }
    }
    *count = m;
    return out;
}

static int read_cells(PyObject *list, int *out, int room, Py_ssize_t ncands)
{
    if (!PyList_Check(list) || PyList_GET_SIZE(list) > room) {
        PyErr_SetString(PyExc_ValueError, "sdc_pair: a list of cells too long");
        return -1;
    }
    for (Py_ssize_t k = 0; k < PyList_GET_SIZE(list); k++) {
        long v = PyLong_AsLong(PyList_GET_ITEM(list, k));
        if (v < 0 || v >= ncands) {
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_ValueError, "sdc_pair: a cell out of range");
            return -1;
        }
        out[k] = (int)v;
    }
    return (int)PyList_GET_SIZE(list);
}

static int in_cells(int cell, const int *cells, int n)
{
    for (int k = 0; k < n; k++)
        if (cells[k] == cell)
            return 1;
    return 0;
}

static PyObject *cells_tuple(const int *cells, int n)
{
    PyObject *t = PyTuple_New(n);
    for (int k = 0; t && k < n; k++)
        PyTuple_SET_ITEM(t, k, PyLong_FromLong(cells[k]));
    return t;
}

/* sdc_pair(inter, line_rest, box_rest, line, box, cands) -> [(core, line part, box part)] */
PyObject *logic_sdc_pair(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    if (nargs != 6 || !PyList_Check(args[5])) {
        PyErr_SetString(PyExc_TypeError,
                        "sdc_pair(inter, line_rest, box_rest, line, box, cands: list)");
        return NULL;
    }
    Py_ssize_t ncands = PyList_GET_SIZE(args[5]);
    int inter[LOGIC_MAX_SIZE], lrest[LOGIC_MAX_SIZE], brest[LOGIC_MAX_SIZE],
        line[LOGIC_MAX_SIZE], box[LOGIC_MAX_SIZE];
    int ni = read_cells(args[0], inter, LOGIC_MAX_SIZE, ncands);
    int nl = ni < 0 ? -1 : read_cells(args[1], lrest, LOGIC_MAX_SIZE, ncands);
    int nb = nl < 0 ? -1 : read_cells(args[2], brest, LOGIC_MAX_SIZE, ncands);
    int nline = nb < 0 ? -1 : read_cells(args[3], line, LOGIC_MAX_SIZE, ncands);
    int nbox = nline < 0 ? -1 : read_cells(args[4], box, LOGIC_MAX_SIZE, ncands);
    if (nbox < 0)
        return NULL;
    /* the candidates of every cell named, by cell id */
    uint32_t cand[LOGIC_MAX_CELLS];
    if (ncands > LOGIC_MAX_CELLS) {
        PyErr_SetString(PyExc_ValueError, "sdc_pair: too many cells");
        return NULL;
    }
    const int *lists[5] = {inter, lrest, brest, line, box};
    int lens[5] = {ni, nl, nb, nline, nbox};
    for (int l = 0; l < 5; l++)
        for (int k = 0; k < lens[l]; k++) {
            unsigned long m = PyLong_AsUnsignedLong(PyList_GET_ITEM(args[5], lists[l][k]));
            if (PyErr_Occurred() || m > 0xffffffffUL) {
                if (!PyErr_Occurred())
                    PyErr_SetString(PyExc_ValueError, "sdc_pair: a candidate mask too big");
                return NULL;
            }
            cand[lists[l][k]] = (uint32_t)m;
        }
    uint32_t lmask[LOGIC_MAX_SIZE], bmask[LOGIC_MAX_SIZE];
    for (int k = 0; k < nl; k++)
        lmask[k] = cand[lrest[k]];
    for (int k = 0; k < nb; k++)
        bmask[k] = cand[brest[k]];
    PyObject *out = PyList_New(0);
    Subset *ls = NULL, *bs = NULL;
    int nls = 0, nbs = 0;
    if (!out)
        return NULL;
    for (int k = 2; k <= 3 && k <= ni; k++) {
        int idx[3];
        for (int j = 0; j < k; j++)
            idx[j] = j;
        for (;;) {
            uint32_t v = 0;
            int core[3];
            for (int j = 0; j < k; j++) {
                core[j] = inter[idx[j]];
                v |= cand[core[j]];
            }
            int spare = __builtin_popcount(v) - k;
            if (spare >= 2) {
                if (!ls) {
                    ls = all_subsets(lrest, lmask, nl, &nls);
                    bs = all_subsets(brest, bmask, nb, &nbs);
                    if (!ls || !bs) {
                        PyErr_NoMemory();
                        goto fail;
                    }
                }
                for (int a = 0; a < nls; a++) {
                    uint32_t vl = ls[a].digits;
                    int sl = ls[a].count - __builtin_popcount(vl & ~v);
                    if (!(vl & v) || sl < 0)
                        continue;
                    for (int b = 0; b < nbs; b++) {
                        uint32_t vb = bs[b].digits;
                        if (!(vb & v) || bs[b].count - __builtin_popcount(vb & ~v) != spare - sl)
                            continue;
                        if (vl & vb)
                            continue;
                        if (__builtin_popcount(v | vl | vb) != k + ls[a].count + bs[b].count)
                            continue;
                        uint32_t line_digits = vl | (v & ~vb), box_digits = vb | (v & ~vl);
                        int used[12], nused = 0, hit = 0;
                        for (int j = 0; j < k; j++)
                            used[nused++] = core[j];
                        for (int j = 0; j < ls[a].count; j++)
                            used[nused++] = ls[a].cells[j];
                        for (int j = 0; j < bs[b].count; j++)
                            used[nused++] = bs[b].cells[j];
                        for (int j = 0; j < nline && !hit; j++)
                            hit = (cand[line[j]] & line_digits) && !in_cells(line[j], used, nused);
                        for (int j = 0; j < nbox && !hit; j++)
                            hit = (cand[box[j]] & box_digits) && !in_cells(box[j], used, nused);
                        if (!hit)
                            continue;
                        PyObject *item = Py_BuildValue("(NNN)", cells_tuple(core, k),
                                                       cells_tuple(ls[a].cells, ls[a].count),
                                                       cells_tuple(bs[b].cells, bs[b].count));
                        if (!item || PyList_Append(out, item) < 0) {
                            Py_XDECREF(item);
                            goto fail;
                        }
                        Py_DECREF(item);
                    }
                }
            }
            int j = k - 1;
            while (j >= 0 && idx[j] == ni - k + j)
                j--;
            if (j < 0)
                break;
            idx[j]++;
            for (int t = j + 1; t < k; t++)
                idx[t] = idx[t - 1] + 1;
        }
    }
    free(ls);
    free(bs);
    return out;
fail:
    free(ls);
    free(bs);
    Py_DECREF(out);
    return NULL;
}

/* -- grouped AIC ---------------------------------------------------------------------------- */

typedef struct {
    int digit, count, cells[LOGIC_MAX_SIZE], units[2];
} Group;

/* Add `node` to the list of `owner` (lists of room `room` each). */
static int list_add(Ints *lists, int owner, int node)
{
    return ints_push(&lists[owner], node);
}

/* The dict {node: mask of nodes} of the non-empty lists (nodes from `first`). */
static PyObject *lists_dict(Ints *lists, int count, int first, unsigned char *scratch,
                            Py_ssize_t limit)
{
    PyObject *out = PyDict_New();
    for (int k = 0; out && k < count; k++) {
        if (!lists[k].len)
            continue;
        PyObject *key = PyLong_FromLong(first + k);
        PyObject *mask = nodes_mask(lists[k].data, lists[k].len, scratch, limit);
        if (!key || !mask || PyDict_SetItem(out, key, mask) < 0)
            Py_CLEAR(out);
        Py_XDECREF(key);
        Py_XDECREF(mask);
    }
    return out;
}

/* grouped_links(n, cands) -> (groups, weak, strong): chains.grouped_graph's group nodes: the
 * 2+ candidates of a digit in a box-line intersection (boxes in order, each with its rows then
 * its columns, digits ascending), numbered from N*N*N; `weak` and `strong` map each group to the
 * mask of its partners and each candidate linked to a group to the mask of those groups. */
PyObject *logic_grouped_links(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    if (nargs != 2 || !PyList_Check(args[1])) {
        PyErr_SetString(PyExc_TypeError, "grouped_links(n, cands: list)");
        return NULL;
    }
    long n = PyLong_AsLong(args[0]);
    if (n < 2 || n > 5) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError, "the box size n must be 2..5");
        return NULL;
    }
    const Geo *geo = geo_of((int)n);
    if (!geo)
        return PyErr_NoMemory();
    int size = geo->size, cells = geo->cells, base = cells * size;
    if (PyList_GET_SIZE(args[1]) != cells) {
        PyErr_Format(PyExc_ValueError, "expected %d candidate masks", cells);
        return NULL;
    }
    uint32_t cand[LOGIC_MAX_CELLS];
    for (int i = 0; i < cells; i++) {
        unsigned long m = PyLong_AsUnsignedLong(PyList_GET_ITEM(args[1], i));
        if (PyErr_Occurred())
            return NULL;
        cand[i] = (uint32_t)m;
    }
    /* the groups, and per unit and digit the groups lying in it */
    int room = 2 * size * size * size;
    Group *groups = malloc((size_t)room * sizeof(Group));
    Ints *in_unit = calloc((size_t)3 * size * size, sizeof(Ints));
    Ints *weak = NULL, *strong = NULL;
    unsigned char *scratch = NULL;
    PyObject *out = NULL, *glist = NULL, *wd = NULL, *sd = NULL, *cw = NULL, *cs = NULL;
    int ng = 0;
    if (!groups || !in_unit) {
        PyErr_NoMemory();
        goto done;
    }
    for (int b = 0; b < size; b++) {
        const int16_t *box = geo->units[2 * size + b];
        for (int line = 0; line < 2 * size; line++) {
            int inter[LOGIC_MAX_SIZE], ni = 0;
            for (int k = 0; k < size; k++) {
                int i = geo->units[line][k];
                for (int t = 0; t < size; t++)
                    if (box[t] == i) {
                        inter[ni++] = i;
                        break;
                    }
            }
            for (int d = 0; ni && d < size; d++) {
                Group g = {.digit = d, .units = {line, 2 * size + b}};
                for (int k = 0; k < ni; k++)
                    if (cand[inter[k]] >> d & 1)
                        g.cells[g.count++] = inter[k];
                if (g.count < 2)
                    continue;
                for (int u = 0; u < 2; u++)
                    if (ints_push(&in_unit[g.units[u] * size + d], ng))
                        goto done;
                groups[ng++] = g;
            }
        }
    }
    weak = calloc((size_t)ng + cells * size + 1, sizeof(Ints));
    strong = calloc((size_t)ng + cells * size + 1, sizeof(Ints));
    scratch = calloc(((size_t)base + ng) / 8 + 1, 1);
    if (!weak || !strong || !scratch) {
        PyErr_NoMemory();
        goto done;
    }
    /* lists 0..ng-1: the groups' partners; ng + node: a candidate's groups */
    for (int g = 0; g < ng; g++) {
        const Group *me = &groups[g];
        int d = me->digit;
        for (int u = 0; u < 2; u++) {
            const int16_t *unit = geo->units[me->units[u]];
            int rest[LOGIC_MAX_SIZE], nr = 0;
            for (int k = 0; k < size; k++) {
                int i = unit[k];
                if (cand[i] >> d & 1 && !in_cells(i, me->cells, me->count))
                    rest[nr++] = i;
            }
            for (int k = 0; k < nr; k++) {
                int node = rest[k] * size + d;
                if (list_add(weak, g, node) || list_add(weak, ng + node, base + g))
                    goto done;
            }
            const Ints *others = &in_unit[me->units[u] * size + d];
            for (int k = 0; k < others->len; k++) {
                int h = others->data[k];
                const Group *him = &groups[h];
                int overlap = 0;
                for (int t = 0; t < him->count && !overlap; t++)
                    overlap = in_cells(him->cells[t], me->cells, me->count);
                if (h == g || overlap)
                    continue;
                if (list_add(weak, g, base + h))
                    goto done;
                int same = him->count == nr;
                for (int t = 0; t < him->count && same; t++)
                    same = in_cells(him->cells[t], rest, nr);
                if (same && list_add(strong, g, base + h))
                    goto done;
            }
            if (nr == 1) {
                int node = rest[0] * size + d;
                if (list_add(strong, g, node) || list_add(strong, ng + node, base + g))
                    goto done;
            }
        }
    }
    Py_ssize_t limit = (Py_ssize_t)base + ng;
    glist = PyList_New(ng);
    for (int g = 0; glist && g < ng; g++) {
        PyObject *item = Py_BuildValue("(iN)", groups[g].digit + 1,
                                       cells_tuple(groups[g].cells, groups[g].count));
        if (!item)
            Py_CLEAR(glist);
        else
            PyList_SET_ITEM(glist, g, item);
    }
    wd = glist ? lists_dict(weak, ng, base, scratch, limit) : NULL;
    sd = wd ? lists_dict(strong, ng, base, scratch, limit) : NULL;
    cw = sd ? lists_dict(weak + ng, cells * size, 0, scratch, limit) : NULL;
    cs = cw ? lists_dict(strong + ng, cells * size, 0, scratch, limit) : NULL;
    if (cs) {
        /* the candidates' group links join the groups' own in one dict each */
        if (PyDict_Update(wd, cw) == 0 && PyDict_Update(sd, cs) == 0)
            out = Py_BuildValue("(OOO)", glist, wd, sd);
    }
done:
    if (weak)
        for (int k = 0; k < ng + cells * size; k++)
            free(weak[k].data);
    if (strong)
        for (int k = 0; k < ng + cells * size; k++)
            free(strong[k].data);
    if (in_unit)
        for (int k = 0; k < 3 * size * size; k++)
            free(in_unit[k].data);
    free(weak);
    free(strong);
    free(in_unit);
    free(groups);
    free(scratch);
    Py_XDECREF(glist);
    Py_XDECREF(wd);
    Py_XDECREF(sd);
    Py_XDECREF(cw);
    Py_XDECREF(cs);
    return out;
}

/* -- fish ----------------------------------------------------------------------------------- */

/* fish_scan(masks, k, n, finned) -> [(base lines, union or fin positions)]: fish.py's _fish_on
 * for one digit and one orientation (masks: per base line the cross positions holding the
 * digit): the basic fish (union) or the finned ones (the fin positions' mask) that eliminate
 * something, in the order the Python loops meet them. */
PyObject *logic_fish_scan(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    if (nargs != 4 || !PyList_Check(args[0])) {
        PyErr_SetString(PyExc_TypeError, "fish_scan(masks: list, k, n, finned)");
        return NULL;
    }
    long k = PyLong_AsLong(args[1]), n = PyLong_AsLong(args[2]);
    int finned = PyObject_IsTrue(args[3]);
    Py_ssize_t size = PyList_GET_SIZE(args[0]);
    if (PyErr_Occurred() || finned < 0)
        return NULL;
    if (k < 1 || k > 8 || n < 1 || n > 5 || size != n * n) {
        PyErr_SetString(PyExc_ValueError, "fish_scan: an argument out of range");
        return NULL;
    }
    uint32_t masks[LOGIC_MAX_SIZE];
    int lines[LOGIC_MAX_SIZE], nlines = 0, pool[LOGIC_MAX_SIZE], npool = 0;
    for (Py_ssize_t i = 0; i < size; i++) {
        unsigned long m = PyLong_AsUnsignedLong(PyList_GET_ITEM(args[0], i));
        if (PyErr_Occurred())
            return NULL;
        masks[i] = (uint32_t)m;
        if (m)
            lines[nlines++] = (int)i;
    }
    PyObject *out = PyList_New(0);
    if (!out || nlines <= k)
        return out;
    int limit = (int)(finned ? k + n : k);
    for (int a = 0; a < nlines; a++)
        if (__builtin_popcount(masks[lines[a]]) <= limit)
            pool[npool++] = lines[a];
    /* depth-first over the pool, as fish.py's _bases: idx[level], unions[level] */
    int idx[8], depth = 0;
    uint32_t unions[9] = {0};
    idx[0] = 0;
    while (depth >= 0) {
        if (idx[depth] > npool - (k - depth)) {
            depth--;
            if (depth >= 0)
                idx[depth]++;
            continue;
        }
        uint32_t u = unions[depth] | masks[pool[idx[depth]]];
        if (__builtin_popcount(u) > limit) {
            idx[depth]++;
            continue;
        }
        if (depth + 1 < k) {
            unions[depth + 1] = u;
            idx[depth + 1] = idx[depth] + 1;
            depth++;
            continue;
        }
        /* a base: pool[idx[0..k-1]] with union u */
        int base[8];
        uint32_t in_base = 0;
        for (int j = 0; j < k; j++) {
            base[j] = pool[idx[j]];
            in_base |= 1u << base[j];
        }
        int ucount = __builtin_popcount(u);
        if (!finned) {
            int hit = 0;
            if (ucount == k)
                for (int line = 0; line < size && !hit; line++)
                    hit = !(in_base >> line & 1) && (masks[line] & u);
            if (hit) {
                PyObject *item = Py_BuildValue("(NI)", cells_tuple(base, (int)k), (unsigned)u);
                if (!item || PyList_Append(out, item) < 0) {
                    Py_XDECREF(item);
                    Py_DECREF(out);
                    return NULL;
                }
                Py_DECREF(item);
            }
        } else if (k < ucount && ucount <= k + n) {
            int nfins = ucount - (int)k;
            for (int stack = 0; stack < n; stack++) {
                uint32_t smask = ((1u << n) - 1) << (stack * n), avail = u & smask;
                if (__builtin_popcount(avail) < nfins)
                    continue;
                int pos[LOGIC_MAX_SIZE], npos = 0, fi[LOGIC_MAX_SIZE];
                for (int p = 0; p < size; p++)
                    if (avail >> p & 1)
                        pos[npos++] = p;
                for (int j = 0; j < nfins; j++)
                    fi[j] = j;
                for (;;) {
                    uint32_t fmask = 0;
                    for (int j = 0; j < nfins; j++)
                        fmask |= 1u << pos[fi[j]];
                    uint32_t cmask = u & ~fmask;
                    int band = -1, ok = (cmask & smask) != 0;
                    for (int j = 0; ok && j < k; j++)
                        if (masks[base[j]] & fmask) {
                            if (band < 0)
                                band = base[j] / (int)n;
                            else if (base[j] / (int)n != band)
                                ok = 0;
                        }
                    int hit = 0;
                    for (int line = band * (int)n; ok && !hit && line < band * n + n; line++)
                        hit = !(in_base >> line & 1) && (masks[line] & cmask & smask);
                    if (hit) {
                        PyObject *item =
                            Py_BuildValue("(NI)", cells_tuple(base, (int)k), (unsigned)fmask);
                        if (!item || PyList_Append(out, item) < 0) {
                            Py_XDECREF(item);
                            Py_DECREF(out);
                            return NULL;
                        }
                        Py_DECREF(item);
                    }
                    int j = nfins - 1;
                    while (j >= 0 && fi[j] == npos - nfins + j)
                        j--;
                    if (j < 0)
                        break;
                    fi[j]++;
                    for (int t = j + 1; t < nfins; t++)
                        fi[t] = fi[t - 1] + 1;
                }
            }
        }
        idx[depth]++;
    }
    return out;
}
