/* The colour line solver in C: the same answer as line.py's, computed cell by cell.
 *
 * solve_line(clue, line) takes a clue as a tuple of (length, colour) pairs and a line as a
 * tuple of colour masks (bit 0 the background, bit c colour c; at most 63 colours), and
 * returns the line narrowed to the colours some placement gives each cell: the same tuple
 * object when nothing changes, a new tuple when something does, None when no placement fits.
 * run_starts(clue, line) gives the starts each run may take (what the SAT encoding needs).
 *
 * The dynamic programme (n cells, k runs, all O(n * k)):
 *   fwd[j][i]  runs 0..j-1 fit in cells [0, i), background after the last one up to i;
 *   bwd[j][i]  runs j..k-1 fit in cells [i, n), background before the first one from i;
 *   run j may start at s when its colour is allowed on s..s+len-1, the runs before it end by s
 *   (one background cell earlier when run j-1 has the same colour) and the runs after it fit
 *   from s+len on (after one background cell when run j+1 has the same colour).
 * A cell may be colour c when a possible start of a run of colour c covers it, and background
 * when for some j the runs before j fit left of it and the runs from j fit right of it.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MAX_COLOURS 63

typedef struct {
    Py_ssize_t n, k;
    const uint64_t *line;
    const Py_ssize_t *len;
    const int *colour;
    unsigned char *fwd, *bwd, *bg_ok;
    int32_t *bad;  /* per run j: bad[j * (n + 1) + i] = cells in [0, i) not allowing run j's colour */
} Work;

#define FWD(w, j, i) ((w)->fwd[(j) * ((w)->n + 1) + (i)])
#define BWD(w, j, i) ((w)->bwd[(j) * ((w)->n + 2) + (i)])

static int fits_colour(const Work *w, Py_ssize_t j, Py_ssize_t s) {
    const int32_t *bad = w->bad + j * (w->n + 1);
    Py_ssize_t e = s + w->len[j];
    return s >= 0 && e <= w->n && bad[e] == bad[s];
}

/* The runs before j may have ended (with the gap the colours need) by start s. */
static int start_ok(const Work *w, Py_ssize_t j, Py_ssize_t s) {
    if (j == 0 || w->colour[j - 1] != w->colour[j]) return FWD(w, j, s);
    return s >= 1 && w->bg_ok[s - 1] && FWD(w, j, s - 1);
}

/* The runs after j fit from the end e of run j (with the gap the colours need). */
static int end_ok(const Work *w, Py_ssize_t j, Py_ssize_t e) {
    if (j == w->k - 1) return BWD(w, w->k, e);
    if (w->colour[j + 1] != w->colour[j]) return BWD(w, j + 1, e);
    return e < w->n && w->bg_ok[e] && BWD(w, j + 1, e + 1);
}

static void forward(Work *w) {
    Py_ssize_t n = w->n, k = w->k;
    FWD(w, 0, 0) = 1;
    for (Py_ssize_t i = 1; i <= n; i++) FWD(w, 0, i) = FWD(w, 0, i - 1) && w->bg_ok[i - 1];
    for (Py_ssize_t j = 1; j <= k; j++) {
        Py_ssize_t len = w->len[j - 1];
        for (Py_ssize_t i = 0; i <= n; i++) {
            int ends_here = i >= len && fits_colour(w, j - 1, i - len) && start_ok(w, j - 1, i - len);
            FWD(w, j, i) = ends_here || (i >= 1 && FWD(w, j, i - 1) && w->bg_ok[i - 1]);
        }
    }
}

static void backward(Work *w) {
    Py_ssize_t n = w->n, k = w->k;
    BWD(w, k, n) = 1;
    BWD(w, k, n + 1) = 0;
    for (Py_ssize_t i = n - 1; i >= 0; i--) BWD(w, k, i) = w->bg_ok[i] && BWD(w, k, i + 1);
    for (Py_ssize_t j = k - 1; j >= 0; j--) {
        BWD(w, j, n + 1) = 0;
        BWD(w, j, n) = 0;
        for (Py_ssize_t i = n - 1; i >= 0; i--) {
            int starts_here = fits_colour(w, j, i) && end_ok(w, j, i + w->len[j]);
            BWD(w, j, i) = starts_here || (w->bg_ok[i] && BWD(w, j, i + 1));
        }
    }
}

/* possible[i]: the colour mask cell i may take; 0 when the clue does not fit at all. */
static int narrow(Work *w, uint64_t *possible, int32_t *cover) {
    Py_ssize_t n = w->n, k = w->k;
    forward(w);
    if (!FWD(w, k, n)) return 0;
    backward(w);
    memset(possible, 0, (size_t)n * sizeof(uint64_t));
    for (Py_ssize_t j = 0; j < k; j++) {
        Py_ssize_t len = w->len[j];
        memset(cover, 0, (size_t)(n + 1) * sizeof(int32_t));
        for (Py_ssize_t s = 0; s + len <= n; s++) {
            if (fits_colour(w, j, s) && start_ok(w, j, s) && end_ok(w, j, s + len)) {
                cover[s]++;
                cover[s + len]--;
            }
        }
        int32_t depth = 0;
        uint64_t bit = (uint64_t)1 << w->colour[j];
        for (Py_ssize_t i = 0; i < n; i++) {
            depth += cover[i];
            if (depth > 0) possible[i] |= bit;
        }
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        if (!w->bg_ok[i]) continue;
        for (Py_ssize_t j = 0; j <= k; j++) {
            if (FWD(w, j, i) && BWD(w, j, i + 1)) {
                possible[i] |= 1;
                break;
            }
        }
    }
    return 1;
}

static int read_clue(PyObject *clue, Py_ssize_t *len, int *colour, Py_ssize_t k) {
    for (Py_ssize_t j = 0; j < k; j++) {
        PyObject *run = PyTuple_GET_ITEM(clue, j);
        if (!PyTuple_Check(run) || PyTuple_GET_SIZE(run) != 2) {
            PyErr_SetString(PyExc_TypeError, "a run is a (length, colour) tuple");
            return -1;
        }
        len[j] = PyLong_AsSsize_t(PyTuple_GET_ITEM(run, 0));
        long c = PyLong_AsLong(PyTuple_GET_ITEM(run, 1));
        if (PyErr_Occurred()) return -1;
        if (len[j] < 1 || c < 1 || c > MAX_COLOURS) {
            PyErr_SetString(PyExc_ValueError, "run length or colour out of range");
            return -1;
        }
        colour[j] = (int)c;
    }
    return 0;
}

typedef struct {
    char *block;
    Work w;
    uint64_t *possible;
    int32_t *cover;
} Line;

/* Read the clue and the line into one allocated block; -1 with a Python error set. */
static int load(PyObject *clue, PyObject *line_obj, Line *out) {
    Py_ssize_t n = PyTuple_GET_SIZE(line_obj), k = PyTuple_GET_SIZE(clue);
    size_t cells = (size_t)n + 2, runs = (size_t)k + 1;
    /* One block, widest arrays first so that each stays aligned: line, possible, len (8
     * bytes each), bad, cover, colour (4), bg_ok, fwd, bwd (1). */
    size_t bytes = cells * 2 * sizeof(uint64_t) + runs * sizeof(Py_ssize_t) +
                   (runs * cells + cells) * sizeof(int32_t) + runs * sizeof(int) + cells +
                   2 * runs * cells;
    char *block = calloc(1, bytes);
    if (block == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    uint64_t *line = (uint64_t *)block;
    uint64_t *possible = line + cells;
    Py_ssize_t *len = (Py_ssize_t *)(possible + cells);
    int32_t *bad = (int32_t *)(len + runs);
    int32_t *cover = bad + runs * cells;
    int *colour = (int *)(cover + cells);
    unsigned char *bg_ok = (unsigned char *)(colour + runs);
    unsigned char *fwd = bg_ok + cells;
    unsigned char *bwd = fwd + runs * cells;
    out->block = block;
    for (Py_ssize_t i = 0; i < n; i++) {
        line[i] = PyLong_AsUnsignedLongLong(PyTuple_GET_ITEM(line_obj, i));
        if (PyErr_Occurred()) goto fail;
        bg_ok[i] = (unsigned char)(line[i] & 1);
    }
    if (read_clue(clue, len, colour, k) < 0) goto fail;
    for (Py_ssize_t j = 0; j < k; j++) {
        int32_t *row = bad + j * (n + 1);
        uint64_t bit = (uint64_t)1 << colour[j];
        row[0] = 0;
        for (Py_ssize_t i = 0; i < n; i++) row[i + 1] = row[i] + !(line[i] & bit);
    }
    Work w = {n, k, line, len, colour, fwd, bwd, bg_ok, bad};
    out->w = w;
    out->possible = possible;
    out->cover = cover;
    return 0;
fail:
    free(block);
    return -1;
}

static PyObject *solve_line(PyObject *self, PyObject *args) {
    PyObject *clue, *line_obj;
    if (!PyArg_ParseTuple(args, "O!O!", &PyTuple_Type, &clue, &PyTuple_Type, &line_obj)) return NULL;
    Line data;
    if (load(clue, line_obj, &data) < 0) return NULL;
    Work *w = &data.w;
    uint64_t *possible = data.possible;
    Py_ssize_t n = w->n;
    PyObject *result = NULL;
    if (!narrow(w, possible, data.cover)) {
        result = Py_NewRef(Py_None);
        goto done;
    }
    int changed = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        possible[i] &= w->line[i];
        changed |= possible[i] != w->line[i];
    }
    if (!changed) {
        result = Py_NewRef(line_obj);
        goto done;
    }
    result = PyTuple_New(n);
    if (result == NULL) goto done;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *value = PyLong_FromUnsignedLongLong(possible[i]);
        if (value == NULL) {
            Py_CLEAR(result);
            goto done;
        }
        PyTuple_SET_ITEM(result, i, value);
    }
done:
    free(data.block);
    return result;
}

/* The starts each run may take, as a tuple per run; None when the clue does not fit. */
static PyObject *run_starts(PyObject *self, PyObject *args) {
    PyObject *clue, *line_obj;
    if (!PyArg_ParseTuple(args, "O!O!", &PyTuple_Type, &clue, &PyTuple_Type, &line_obj)) return NULL;
    Line data;
    if (load(clue, line_obj, &data) < 0) return NULL;
    Work *w = &data.w;
    PyObject *result = NULL;
    forward(w);
    if (!FWD(w, w->k, w->n)) {
        result = Py_NewRef(Py_None);
        goto done;
    }
    backward(w);
    result = PyTuple_New(w->k);
    if (result == NULL) goto done;
    for (Py_ssize_t j = 0; j < w->k; j++) {
        PyObject *starts = PyList_New(0);
        if (starts == NULL) goto fail;
        PyTuple_SET_ITEM(result, j, starts);
        for (Py_ssize_t s = 0; s + w->len[j] <= w->n; s++) {
            if (!(fits_colour(w, j, s) && start_ok(w, j, s) && end_ok(w, j, s + w->len[j])))
                continue;
            PyObject *value = PyLong_FromSsize_t(s);
            if (value == NULL || PyList_Append(starts, value) < 0) {
                Py_XDECREF(value);
                goto fail;
            }
            Py_DECREF(value);
        }
    }
    goto done;
fail:
    Py_CLEAR(result);
done:
    free(data.block);
    return result;
}

static PyMethodDef methods[] = {
    {"solve_line", solve_line, METH_VARARGS,
     "solve_line(clue, line) -> the narrowed line, the same line, or None (no placement)."},
    {"run_starts", run_starts, METH_VARARGS,
     "run_starts(clue, line) -> a list of possible starts per run, or None (no placement)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_colourline", "The colour nonogram line solver in C.", -1, methods,
};

PyMODINIT_FUNC PyInit__colourline(void) { return PyModule_Create(&module); }
