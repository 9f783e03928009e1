/* pencilbox's compiled Sudoku kernel: the Python module.
 *
 * Two searches do the work (see _kernel.h): _kernel_bands.c for 9x9 (digit boards in band-sized
 * words) and _kernel_grid.c for every box size (one candidate mask per cell), used for 4x4,
 * 16x16 and 25x25. Both count solutions up to a limit (validation mode: a limit of 2 proves
 * uniqueness), honour a node and a time budget, and run with the GIL released. solver.py's
 * pure-Python engines are the reference and the fallback when this module is not built.
 *
 * Python API (see _kernel.pyi):
 *   solve(givens, n, limit, max_nodes, max_seconds) -> (solutions, nodes, stop, by_singles)
 *   solve_batch(givens, n, start, limit, max_nodes, max_seconds, want_singles, slice_seconds)
 *       -> (done, found, stops, singles, nodes, seconds, solutions)
 *   solve_lines(givens, n, start, limit, max_nodes, max_seconds, slice_seconds, symbols, keep)
 *       -> (done, verdicts, solutions as lines of symbols, nodes)
 *   propagate, implications_all, chain_scan, als_rcc, als_scan, sdc_pair, grouped_links,
 *       fish_scan: the human-style solver's hot loops (_kernel_logic.c).
 * The batch call solves puzzles of a bytes object one after the other in C, so a list costs no
 * Python per puzzle; it returns after `slice_seconds` so that the caller can honour Ctrl-C.
 * Every solution is checked against the rules and the givens here before it is returned.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "_kernel.h"

#define MAX_SIZE 25
#define MAX_CELLS (MAX_SIZE * MAX_SIZE)

double kernel_now(void)
{
    struct timespec ts;
#ifdef CLOCK_MONOTONIC
    clock_gettime(CLOCK_MONOTONIC, &ts);
#else
    timespec_get(&ts, TIME_UTC);
#endif
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int result_room(Result *r, int cells)
{
    if (r->found < r->room)
        return 1;
    long room = r->room ? r->room * 2 : 2;
    uint8_t *more = realloc(r->solutions, (size_t)room * cells);
    if (!more) {
        r->stop = KERNEL_STOP_MEMORY;
        return 0;
    }
    r->solutions = more;
    r->room = room;
    return 1;
}

/* Whether `grid` fills every unit with 1..N once and keeps the givens (a guard: a search
 * that returned anything else would be a bug, and we would rather fail than print it). */
static int is_solution(const uint8_t *givens, const uint8_t *grid, int n)
{
    int size = n * n, cells = size * size;
    uint32_t all = (1u << size) - 1, rows[MAX_SIZE] = {0}, cols[MAX_SIZE] = {0},
             boxes[MAX_SIZE] = {0};
    for (int c = 0; c < cells; c++) {
        int v = grid[c], r = c / size, k = c % size;
        if (v < 1 || v > size || (givens[c] && givens[c] != v))
            return 0;
        uint32_t bit = 1u << (v - 1);
        rows[r] |= bit;
        cols[k] |= bit;
        boxes[(r / n) * n + k / n] |= bit;
    }
    for (int u = 0; u < size; u++)
        if (rows[u] != all || cols[u] != all || boxes[u] != all)
            return 0;
    return 1;
}

/* One puzzle with the search for its size; the GIL may be released. */
static void solve_one(const uint8_t *givens, int n, const Limits *limits, Result *result,
                      int want_singles)
{
    if (n != 3) {
        grid_solve(givens, n, limits, result);
        return;
    }
    bands_solve(givens, limits, result);
    /* Singles alone can only fill a grid that the stronger propagation filled without a guess. */
    result->by_singles = want_singles && result->found >= 1 && !result->guesses &&
                         !result->stop && bands_singles_fill(givens);
}

/* 0 unless every solution found is one (else a RuntimeError is set). */
static int check_all(const uint8_t *givens, int n, const Result *r)
{
    int cells = n * n * n * n;
    for (long i = 0; i < r->found; i++)
        if (!is_solution(givens, r->solutions + (size_t)i * cells, n)) {
            PyErr_SetString(PyExc_RuntimeError, "the Sudoku kernel produced an invalid grid");
            return -1;
        }
    return 0;
}

static int check_size(long n)
{
    if (n < 2 || n > 5) {
        PyErr_SetString(PyExc_ValueError, "the box size n must be 2..5");
        return -1;
    }
    if (n == 3)
        bands_init();
    grid_prepare((int)n);
    return 0;
}

static int check_limits(long limit, long long max_nodes, double max_seconds)
{
    if (limit < 1 || limit > 1000000 || max_nodes < 0 || max_seconds < 0) {
        PyErr_SetString(PyExc_ValueError,
                        "need 1 <= limit <= 10**6, max_nodes >= 0 and max_seconds >= 0");
        return -1;
    }
    return 0;
}

/* The givens of a Python sequence of ints into `out`; -1 with an exception on bad input. */
static int read_givens(PyObject *arg, int n, uint8_t *out)
{
    int size = n * n, cells = size * size;
    PyObject *seq = PySequence_Fast(arg, "givens must be a sequence of ints");
    if (!seq)
        return -1;
    if (PySequence_Fast_GET_SIZE(seq) != cells) {
        Py_DECREF(seq);
        PyErr_Format(PyExc_ValueError, "expected %d givens", cells);
        return -1;
    }
    PyObject **items = PySequence_Fast_ITEMS(seq);
    for (int c = 0; c < cells; c++) {
        long v = PyLong_AsLong(items[c]);
        if (v < 0 || v > size) {
            Py_DECREF(seq);
            if (!PyErr_Occurred())
                PyErr_Format(PyExc_ValueError, "a given must be 0..%d", size);
            return -1;
        }
        out[c] = (uint8_t)v;
    }
    Py_DECREF(seq);
    return 0;
}

static PyObject *solutions_list(const Result *r, int cells)
{
    PyObject *list = PyList_New(r->found);
    for (long i = 0; list && i < r->found; i++) {
        PyObject *row = PyList_New(cells);
        if (!row) {
            Py_CLEAR(list);
            break;
        }
        for (int c = 0; c < cells; c++)
            PyList_SET_ITEM(row, c, PyLong_FromLong(r->solutions[(size_t)i * cells + c]));
        PyList_SET_ITEM(list, i, row);
    }
    return list;
}

/* solve(givens, n, limit, max_nodes, max_seconds) -> (solutions, nodes, stop, by_singles) */
static PyObject *kernel_solve(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    if (nargs != 5) {
        PyErr_SetString(PyExc_TypeError, "solve(givens, n, limit, max_nodes, max_seconds)");
        return NULL;
    }
    long n = PyLong_AsLong(args[1]), limit = PyLong_AsLong(args[2]);
    long long max_nodes = PyLong_AsLongLong(args[3]);
    double max_seconds = PyFloat_AsDouble(args[4]);
    uint8_t givens[MAX_CELLS];
    if (PyErr_Occurred() || check_size(n) || check_limits(limit, max_nodes, max_seconds) ||
        read_givens(args[0], (int)n, givens))
        return NULL;
    int cells = (int)(n * n * n * n);
    Limits limits = {.limit = limit, .max_nodes = max_nodes};
    Result result = {0};
    Py_BEGIN_ALLOW_THREADS
    if (max_seconds > 0)
        limits.end = kernel_now() + max_seconds;
    solve_one(givens, (int)n, &limits, &result, 1);
    Py_END_ALLOW_THREADS
    PyObject *out = NULL;
    if (result.stop == KERNEL_STOP_MEMORY)
        PyErr_NoMemory();
    else if (!check_all(givens, (int)n, &result)) {
        PyObject *list = solutions_list(&result, cells);
        if (list)
            out = Py_BuildValue("(NLiO)", list, result.nodes, result.stop,
                                result.by_singles ? Py_True : Py_False);
    }
    free(result.solutions);
    return out;
}

/* The per-puzzle outputs of a batch slice. */
typedef struct {
    uint32_t *found;
    uint8_t *stops, *singles;
    long long *nodes;
    double *seconds;
    uint8_t *solutions; /* the solutions of every puzzle, one after the other */
    size_t used, room;  /* bytes of `solutions` */
} Batch;

static int batch_keep(Batch *b, const Result *r, int cells)
{
    size_t need = (size_t)r->found * cells;
    if (b->used + need > b->room) {
        size_t room = (b->used + need) * 2;
        uint8_t *more = realloc(b->solutions, room);
        if (!more)
            return -1;
        b->solutions = more;
        b->room = room;
    }
    memcpy(b->solutions + b->used, r->solutions, need);
    b->used += need;
    return 0;
}

/* Puzzles `first`.. of `givens` until all are done or `slice` seconds passed; how many. */
static long batch_run(Batch *b, const uint8_t *givens, long first, long count, int n,
                      const Limits *base, double max_seconds, int want_singles, double slice,
                      int *bad)
{
    int cells = n * n * n * n;
    double started = kernel_now(), now = started;
    Result r = {0};
    long i = 0;
    for (; first + i < count && (i == 0 || now - started < slice); i++) {
        const uint8_t *g = givens + (size_t)(first + i) * cells;
        Limits limits = *base;
        if (max_seconds > 0)
            limits.end = now + max_seconds;
        solve_one(g, n, &limits, &r, want_singles);
        double after = kernel_now();
        b->found[i] = (uint32_t)r.found;
        b->stops[i] = (uint8_t)r.stop;
        b->singles[i] = (uint8_t)(r.by_singles != 0);
        b->nodes[i] = r.nodes;
        b->seconds[i] = after - now;
        now = after;
        if (r.stop == KERNEL_STOP_MEMORY || batch_keep(b, &r, cells)) {
            *bad = KERNEL_STOP_MEMORY;
            break;
        }
        for (long k = 0; k < r.found; k++)
            if (!is_solution(g, r.solutions + (size_t)k * cells, n))
                *bad = -1;
    }
    free(r.solutions);
    return i;
}

static PyObject *bytes_of(const void *data, size_t size)
{
    return PyBytes_FromStringAndSize((const char *)data, (Py_ssize_t)size);
}

/* The arguments both batch calls share, checked. */
typedef struct {
    const uint8_t *givens;
    long n, first, count, limit;
    long long max_nodes;
    double max_seconds, slice;
} BatchArgs;

static int batch_args(PyObject *const *args, BatchArgs *a)
{
    if (!PyBytes_Check(args[0])) {
        PyErr_SetString(PyExc_TypeError, "givens must be bytes");
        return -1;
    }
    a->n = PyLong_AsLong(args[1]);
    a->first = PyLong_AsLong(args[2]);
    a->limit = PyLong_AsLong(args[3]);
    a->max_nodes = PyLong_AsLongLong(args[4]);
    a->max_seconds = PyFloat_AsDouble(args[5]);
    if (PyErr_Occurred() || check_size(a->n) || check_limits(a->limit, a->max_nodes, a->max_seconds))
        return -1;
    int size = (int)(a->n * a->n), cells = size * size;
    Py_ssize_t length = PyBytes_GET_SIZE(args[0]);
    a->givens = (const uint8_t *)PyBytes_AS_STRING(args[0]);
    if (length % cells || a->first < 0 || a->first > length / cells) {
        PyErr_Format(PyExc_ValueError, "givens must hold whole grids of %d cells", cells);
        return -1;
    }
    a->count = (long)(length / cells);
    for (Py_ssize_t k = (Py_ssize_t)a->first * cells; k < length; k++)
        if (a->givens[k] > size) {
            PyErr_Format(PyExc_ValueError, "a given must be 0..%d", size);
            return -1;
        }
    return 0;
}

static void batch_free(Batch *b)
{
    free(b->found);
    free(b->stops);
    free(b->singles);
    free(b->nodes);
    free(b->seconds);
    free(b->solutions);
}

/* Solve a slice without the GIL; the number done, or -1 with an exception set. */
static long batch_solve(const BatchArgs *a, int want_singles, Batch *b)
{
    long todo = a->count - a->first;
    b->found = malloc(((size_t)todo + 1) * sizeof *b->found);
    b->stops = malloc((size_t)todo + 1);
    b->singles = malloc((size_t)todo + 1);
    b->nodes = malloc(((size_t)todo + 1) * sizeof *b->nodes);
    b->seconds = malloc(((size_t)todo + 1) * sizeof *b->seconds);
    if (!b->found || !b->stops || !b->singles || !b->nodes || !b->seconds) {
        PyErr_NoMemory();
        return -1;
    }
    int bad = 0;
    long done;
    Limits base = {.limit = a->limit, .max_nodes = a->max_nodes};
    Py_BEGIN_ALLOW_THREADS
    done = batch_run(b, a->givens, a->first, a->count, (int)a->n, &base, a->max_seconds,
                     want_singles, a->slice, &bad);
    Py_END_ALLOW_THREADS
    if (bad == KERNEL_STOP_MEMORY) {
        PyErr_NoMemory();
        return -1;
    }
    if (bad) {
        PyErr_SetString(PyExc_RuntimeError, "the Sudoku kernel produced an invalid grid");
        return -1;
    }
    return done;
}

/* solve_batch(givens, n, start, limit, max_nodes, max_seconds, want_singles, slice_seconds)
 *   -> (done, found, stops, singles, nodes, seconds, solutions) */
static PyObject *kernel_solve_batch(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    BatchArgs a;
    if (nargs != 8) {
        PyErr_SetString(PyExc_TypeError, "solve_batch(givens, n, start, limit, max_nodes, "
                                         "max_seconds, want_singles, slice_seconds)");
        return NULL;
    }
    int want_singles = PyObject_IsTrue(args[6]);
    a.slice = PyFloat_AsDouble(args[7]);
    if (want_singles < 0 || PyErr_Occurred() || batch_args(args, &a))
        return NULL;
    Batch b = {0};
    PyObject *out = NULL;
    long done = batch_solve(&a, want_singles, &b);
    if (done >= 0)
        out = Py_BuildValue("(lNNNNNN)", done, bytes_of(b.found, (size_t)done * sizeof *b.found),
                            bytes_of(b.stops, (size_t)done), bytes_of(b.singles, (size_t)done),
                            bytes_of(b.nodes, (size_t)done * sizeof *b.nodes),
                            bytes_of(b.seconds, (size_t)done * sizeof *b.seconds),
                            bytes_of(b.solutions ? b.solutions : (uint8_t *)"", b.used));
    batch_free(&b);
    return out;
}

enum { VERDICT_NONE, VERDICT_UNIQUE, VERDICT_MULTIPLE, VERDICT_TIMEOUT, VERDICT_BUDGET };

/* Each puzzle's solutions as lines of `symbols` (digit k is symbols[k - 1]), at most `keep`. */
static PyObject *solution_lines(const Batch *b, long done, int cells, const char *symbols,
                                long keep)
{
    PyObject *all = PyList_New(done);
    char line[MAX_CELLS];
    const uint8_t *grid = b->solutions;
    for (long i = 0; all && i < done; i++) {
        long shown = b->stops[i] ? 0 : (long)b->found[i] < keep ? (long)b->found[i] : keep;
        PyObject *lines = PyList_New(shown);
        for (long k = 0; lines && k < shown; k++) {
            for (int c = 0; c < cells; c++)
                line[c] = symbols[grid[(size_t)k * cells + c] - 1];
            PyObject *text = PyUnicode_FromStringAndSize(line, cells);
            if (!text)
                Py_CLEAR(lines);
            else
                PyList_SET_ITEM(lines, k, text);
        }
        grid += (size_t)b->found[i] * cells;
        if (!lines)
            Py_CLEAR(all);
        else
            PyList_SET_ITEM(all, i, lines);
    }
    return all;
}

/* solve_lines(givens, n, start, limit, max_nodes, max_seconds, slice_seconds, symbols, keep)
 *   -> (done, verdicts, solutions, nodes) */
static PyObject *kernel_solve_lines(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    BatchArgs a;
    if (nargs != 9 || !PyBytes_Check(args[7])) {
        PyErr_SetString(PyExc_TypeError, "solve_lines(givens, n, start, limit, max_nodes, "
                                         "max_seconds, slice_seconds, symbols: bytes, keep)");
        return NULL;
    }
    a.slice = PyFloat_AsDouble(args[6]);
    long keep = PyLong_AsLong(args[8]);
    if (PyErr_Occurred() || batch_args(args, &a))
        return NULL;
    if (PyBytes_GET_SIZE(args[7]) != a.n * a.n || keep < 0) {
        PyErr_SetString(PyExc_ValueError, "need N symbols and keep >= 0");
        return NULL;
    }
    Batch b = {0};
    PyObject *out = NULL;
    long done = batch_solve(&a, 0, &b);
    if (done >= 0) {
        uint8_t *verdicts = (uint8_t *)b.singles; /* reused: singles were not asked for */
        for (long i = 0; i < done; i++)
            verdicts[i] = b.stops[i] == KERNEL_STOP_NODES  ? VERDICT_BUDGET
                          : b.stops[i] == KERNEL_STOP_TIME ? VERDICT_TIMEOUT
                          : b.found[i] > 1                 ? VERDICT_MULTIPLE
                                                           : (uint8_t)b.found[i];
        int cells = (int)(a.n * a.n * a.n * a.n);
        PyObject *lines = solution_lines(&b, done, cells, PyBytes_AS_STRING(args[7]), keep);
        if (lines)
            out = Py_BuildValue("(lNNN)", done, bytes_of(verdicts, (size_t)done), lines,
                                bytes_of(b.nodes, (size_t)done * sizeof *b.nodes));
    }
    batch_free(&b);
    return out;
}

static PyMethodDef methods[] = {
    {"solve", (PyCFunction)(void (*)(void))kernel_solve, METH_FASTCALL,
     "solve(givens, n, limit, max_nodes, max_seconds, /)\n"
     "-> (solutions, nodes, stop, by_singles)\n\n"
     "Up to `limit` solutions (lists of N*N digits) of the givens (N*N ints, 0 = empty) for\n"
     "box size n; `nodes` search nodes were visited; `stop` is 0 when the search finished, 1\n"
     "when it passed max_nodes, 2 when it passed max_seconds (0 and 0.0 = no budget);\n"
     "`by_singles`: naked and hidden singles alone fill the grid."},
    {"solve_batch", (PyCFunction)(void (*)(void))kernel_solve_batch, METH_FASTCALL,
     "solve_batch(givens, n, start, limit, max_nodes, max_seconds, want_singles,\n"
     "            slice_seconds, /) -> (done, found, stops, singles, nodes, seconds, solutions)\n\n"
     "Solve the grids of `givens` (bytes, N*N digits each, 0 = empty) from index `start`,\n"
     "each with the budgets of solve(), until all are done or slice_seconds have passed;\n"
     "`done` puzzles were solved. Per puzzle: solutions found (uint32 bytes), stop codes (bytes),\n"
     "singles flags (bytes; computed when want_singles), nodes (int64 bytes), seconds\n"
     "(float64 bytes); `solutions` holds every solution found, puzzle after puzzle."},
    {"solve_lines", (PyCFunction)(void (*)(void))kernel_solve_lines, METH_FASTCALL,
     "solve_lines(givens, n, start, limit, max_nodes, max_seconds, slice_seconds, symbols,\n"
     "            keep, /) -> (done, verdicts, solutions, nodes)\n\n"
     "solve_batch() for sudoku.solve_many: per puzzle a verdict byte (0 none, 1 unique,\n"
     "2 multiple, 3 out of time, 4 past max_nodes), its first `keep` solutions as lines of\n"
     "`symbols` (list of lists of str), and its nodes (int64 bytes)."},
    {"propagate", (PyCFunction)(void (*)(void))logic_propagate, METH_FASTCALL,
     "propagate(n, values, cands, /) -> bool\n\n"
     "Naked and hidden singles until none is left, written into the lists; False on a\n"
     "contradiction (logic/forcing.py's propagate, compiled)."},
    {"implications_all", (PyCFunction)(void (*)(void))logic_implications_all, METH_FASTCALL,
     "implications_all(nodes, weak, strong, groups, limit, /) -> [(on, off, bad, group)]\n\n"
     "What each node being true implies (logic/forcing.py's implications, compiled)."},
    {"chain_scan", (PyCFunction)(void (*)(void))logic_chain_scan, METH_FASTCALL,
     "chain_scan(nodes, strong, weak, full_weak, present, size, base, mode, skip, start,\n"
     "           limit, /) -> (next, start node, [(end, path)]) | None\n\n"
     "The chain ends of the next start that has any (logic/chains.py, compiled)."},
    {"als_rcc", (PyCFunction)(void (*)(void))logic_als_rcc, METH_FASTCALL,
     "als_rcc(packed, size, words, digit_cells, /) -> {a: {b: digits}}\n\n"
     "The restricted common digits of every pair of ALS (logic/als.py's rcc_map, compiled)."},
    {"als_scan", (PyCFunction)(void (*)(void))logic_als_scan, METH_FASTCALL,
     "als_scan(packed, size, words, digit_cells, rcc, kind, /) -> [candidates]\n\n"
     "The ALS-XZ pairs (kind 0) or ALS-XY-Wing triples (kind 1) that eliminate something\n"
     "(logic/als.py, compiled)."},
    {"sdc_pair", (PyCFunction)(void (*)(void))logic_sdc_pair, METH_FASTCALL,
     "sdc_pair(inter, line_rest, box_rest, line, box, cands, /) -> [(core, line, box)]\n\n"
     "The Sue de Coq of one box and line that eliminate something (logic/sdc.py, compiled)."},
    {"grouped_links", (PyCFunction)(void (*)(void))logic_grouped_links, METH_FASTCALL,
     "grouped_links(n, cands, /) -> (groups, weak, strong)\n\n"
     "The group nodes of grouped AIC and their links (logic/chains.py, compiled)."},
    {"fish_scan", (PyCFunction)(void (*)(void))logic_fish_scan, METH_FASTCALL,
     "fish_scan(masks, k, n, finned, /) -> [(base lines, union or fins)]\n\n"
     "The fish of one digit and orientation that eliminate something (logic/fish.py)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_kernel", "A compiled Sudoku search kernel (see _kernel.c).", -1,
    methods,
};

PyMODINIT_FUNC PyInit__kernel(void) { return PyModule_Create(&module); }
