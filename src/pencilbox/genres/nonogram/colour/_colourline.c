/* The colour line solver in C: the same answer as line.py's, computed cell by cell.
 *
 * solve_line(clue, line) takes a clue as a tuple of (length, colour) pairs and a line as a
 * tuple of colour masks (bit 0 the background, bit c colour c; at most 63 colours), and
 * returns the line narrowed to the colours some placement gives each cell: the same tuple
 * object when nothing changes, a new tuple when something does, None when no placement fits.
 * run_starts(clue, line) gives the starts each run may take (what the SAT encoding needs).
 * propagate(row_clues, col_clues, width, cells, rows, cols, max_passes) runs logic.py's
 * propagation loop (dirty rows top to bottom, then dirty columns, until nothing changes) on a
 * whole grid in C: with the grid's lines solved here, a small puzzle's propagation costs tens
 * of microseconds instead of a Python loop with a tuple per line.
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

/* Scratch space for one line of up to n cells and k runs, in one allocated block. */
typedef struct {
    char *block;
    uint64_t *line, *possible;
    Py_ssize_t *len;
    int32_t *bad, *cover;
    int *colour;
    unsigned char *bg_ok, *fwd, *bwd;
} Scratch;

static int scratch_alloc(Scratch *s, Py_ssize_t n, Py_ssize_t k) {
    size_t cells = (size_t)n + 2, runs = (size_t)k + 1;
    /* Widest arrays first so that each stays aligned: line, possible, len (8 bytes each),
     * bad, cover, colour (4), bg_ok, fwd, bwd (1). */
    size_t bytes = cells * 2 * sizeof(uint64_t) + runs * sizeof(Py_ssize_t) +
                   (runs * cells + cells) * sizeof(int32_t) + runs * sizeof(int) + cells +
                   2 * runs * cells;
    char *block = calloc(1, bytes);
    if (block == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    s->block = block;
    s->line = (uint64_t *)block;
    s->possible = s->line + cells;
    s->len = (Py_ssize_t *)(s->possible + cells);
    s->bad = (int32_t *)(s->len + runs);
    s->cover = s->bad + runs * cells;
    s->colour = (int *)(s->cover + cells);
    s->bg_ok = (unsigned char *)(s->colour + runs);
    s->fwd = s->bg_ok + cells;
    s->bwd = s->fwd + runs * cells;
    return 0;
}

/* The work of one line: `line` (n masks) against the runs len/colour[0..k), in s's space. */
static Work setup(Scratch *s, const uint64_t *line, Py_ssize_t n, const Py_ssize_t *len,
                  const int *colour, Py_ssize_t k) {
    for (Py_ssize_t i = 0; i < n; i++) s->bg_ok[i] = (unsigned char)(line[i] & 1);
    for (Py_ssize_t j = 0; j < k; j++) {
        int32_t *row = s->bad + j * (n + 1);
        uint64_t bit = (uint64_t)1 << colour[j];
        row[0] = 0;
        for (Py_ssize_t i = 0; i < n; i++) row[i + 1] = row[i] + !(line[i] & bit);
    }
    Work w = {n, k, line, len, colour, s->fwd, s->bwd, s->bg_ok, s->bad};
    return w;
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

/* Read the clue and the line (Python tuples) into fresh scratch space; -1 with a Python error
 * set (the space freed). */
static int load(PyObject *clue, PyObject *line_obj, Scratch *s, Work *w) {
    Py_ssize_t n = PyTuple_GET_SIZE(line_obj), k = PyTuple_GET_SIZE(clue);
    if (scratch_alloc(s, n, k) < 0) return -1;
    for (Py_ssize_t i = 0; i < n; i++) {
        s->line[i] = PyLong_AsUnsignedLongLong(PyTuple_GET_ITEM(line_obj, i));
        if (PyErr_Occurred()) goto fail;
    }
    if (read_clue(clue, s->len, s->colour, k) < 0) goto fail;
    *w = setup(s, s->line, n, s->len, s->colour, k);
    return 0;
fail:
    free(s->block);
    return -1;
}

static PyObject *solve_line(PyObject *self, PyObject *args) {
    PyObject *clue, *line_obj;
    if (!PyArg_ParseTuple(args, "O!O!", &PyTuple_Type, &clue, &PyTuple_Type, &line_obj)) return NULL;
    Scratch data;
    Work work;
    if (load(clue, line_obj, &data, &work) < 0) return NULL;
    Work *w = &work;
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
    Scratch data;
    Work work;
    if (load(clue, line_obj, &data, &work) < 0) return NULL;
    Work *w = &work;
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

/* The clues of one direction (rows or columns), flattened: line i's runs are
 * len/colour[start[i] .. start[i + 1]). */
typedef struct {
    Py_ssize_t count, *start, *len;
    int *colour;
} Clues;

static void clues_free(Clues *c) {
    free(c->start);
    free(c->len);
    free(c->colour);
}

static int clues_read(PyObject *seq_obj, Py_ssize_t count, Clues *out, Py_ssize_t *max_runs) {
    out->start = NULL;
    out->len = NULL;
    out->colour = NULL;
    PyObject *seq = PySequence_Fast(seq_obj, "clues must be a sequence");
    if (seq == NULL) return -1;
    if (PySequence_Fast_GET_SIZE(seq) != count) {
        PyErr_SetString(PyExc_ValueError, "the clues do not match the grid's size");
        goto fail;
    }
    Py_ssize_t total = 0;
    for (Py_ssize_t i = 0; i < count; i++) {
        PyObject *clue = PySequence_Fast_GET_ITEM(seq, i);
        if (!PyTuple_Check(clue)) {
            PyErr_SetString(PyExc_TypeError, "a clue is a tuple of (length, colour) runs");
            goto fail;
        }
        Py_ssize_t k = PyTuple_GET_SIZE(clue);
        total += k;
        if (k > *max_runs) *max_runs = k;
    }
    out->count = count;
    out->start = malloc((size_t)(count + 1) * sizeof(Py_ssize_t));
    out->len = malloc((size_t)(total + 1) * sizeof(Py_ssize_t));
    out->colour = malloc((size_t)(total + 1) * sizeof(int));
    if (out->start == NULL || out->len == NULL || out->colour == NULL) {
        PyErr_NoMemory();
        goto fail;
    }
    out->start[0] = 0;
    for (Py_ssize_t i = 0; i < count; i++) {
        PyObject *clue = PySequence_Fast_GET_ITEM(seq, i);
        Py_ssize_t at = out->start[i], k = PyTuple_GET_SIZE(clue);
        if (read_clue(clue, out->len + at, out->colour + at, k) < 0) goto fail;
        out->start[i + 1] = at + k;
    }
    Py_DECREF(seq);
    return 0;
fail:
    Py_DECREF(seq);
    clues_free(out);
    return -1;
}

/* Mark the line numbers listed in `indices` (any iterable of ints below `count`) in flags. */
static int read_dirty(PyObject *indices, unsigned char *flags, Py_ssize_t count) {
    PyObject *iter = PyObject_GetIter(indices), *item;
    if (iter == NULL) return -1;
    while ((item = PyIter_Next(iter)) != NULL) {
        Py_ssize_t i = PyLong_AsSsize_t(item);
        Py_DECREF(item);
        if (i == -1 && PyErr_Occurred()) break;
        if (i < 0 || i >= count) {
            PyErr_SetString(PyExc_IndexError, "a dirty line is outside the grid");
            break;
        }
        flags[i] = 1;
    }
    Py_DECREF(iter);
    return PyErr_Occurred() ? -1 : 0;
}

static PyObject *flagged(const unsigned char *flags, Py_ssize_t count) {
    PyObject *list = PyList_New(0);
    for (Py_ssize_t i = 0; list != NULL && i < count; i++) {
        if (!flags[i]) continue;
        PyObject *value = PyLong_FromSsize_t(i);
        if (value == NULL || PyList_Append(list, value) < 0) Py_CLEAR(list);
        Py_XDECREF(value);
    }
    return list;
}

/* One direction's part of a pass: solve every flagged line (flags cleared as it goes), mark
 * the crossing lines whose cells changed in `touched`; the broken line's index, or -1. */
static Py_ssize_t sweep(uint64_t *grid, Py_ssize_t width, int rows, const Clues *clues,
                        Py_ssize_t n, unsigned char *todo, unsigned char *touched, Scratch *s,
                        long *solves) {
    Py_ssize_t step = rows ? 1 : width;
    for (Py_ssize_t index = 0; index < clues->count; index++) {
        if (!todo[index]) continue;
        todo[index] = 0;
        ++*solves;
        uint64_t *first = grid + (rows ? index * width : index);
        for (Py_ssize_t i = 0; i < n; i++) s->line[i] = first[i * step];
        Py_ssize_t at = clues->start[index];
        Work w = setup(s, s->line, n, clues->len + at, clues->colour + at,
                       clues->start[index + 1] - at);
        if (!narrow(&w, s->possible, s->cover)) return index;
        for (Py_ssize_t i = 0; i < n; i++) {
            uint64_t narrowed = s->possible[i] & s->line[i];
            if (narrowed != s->line[i]) {
                first[i * step] = narrowed;
                touched[i] = 1;
            }
        }
    }
    return -1;
}

static int any(const unsigned char *flags, Py_ssize_t count) {
    for (Py_ssize_t i = 0; i < count; i++)
        if (flags[i]) return 1;
    return 0;
}

/* propagate(row_clues, col_clues, width, cells, rows, cols, max_passes) -> (broken, passes,
 * solves, rows, cols): cells (a list of masks, row-major) narrowed in place; broken None or
 * ("row" | "column", index); the dirty rows and columns left when max_passes (< 0: no limit)
 * stopped it. */
static PyObject *propagate(PyObject *self, PyObject *args) {
    PyObject *row_obj, *col_obj, *cells, *rows_obj, *cols_obj;
    Py_ssize_t width;
    long max_passes;
    if (!PyArg_ParseTuple(args, "OOnO!OOl", &row_obj, &col_obj, &width, &PyList_Type, &cells,
                          &rows_obj, &cols_obj, &max_passes))
        return NULL;
    Py_ssize_t total = PyList_GET_SIZE(cells);
    if (width < 1 || total % width != 0) {
        PyErr_SetString(PyExc_ValueError, "the cells do not make a grid of this width");
        return NULL;
    }
    Py_ssize_t height = total / width, max_runs = 0;
    Clues row_clues, col_clues;
    if (clues_read(row_obj, height, &row_clues, &max_runs) < 0) return NULL;
    if (clues_read(col_obj, width, &col_clues, &max_runs) < 0) {
        clues_free(&row_clues);
        return NULL;
    }
    PyObject *result = NULL;
    Scratch s = {NULL};
    uint64_t *grid = malloc((size_t)total * 2 * sizeof(uint64_t) + 1);
    unsigned char *dirty_rows = calloc((size_t)(height + width) * 2 + 1, 1);
    if (grid == NULL || dirty_rows == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    uint64_t *before = grid + total;
    unsigned char *dirty_cols = dirty_rows + height;
    if (scratch_alloc(&s, width > height ? width : height, max_runs) < 0) goto done;
    for (Py_ssize_t i = 0; i < total; i++) {
        grid[i] = PyLong_AsUnsignedLongLong(PyList_GET_ITEM(cells, i));
        if (PyErr_Occurred()) goto done;
        before[i] = grid[i];
    }
    if (read_dirty(rows_obj, dirty_rows, height) < 0) goto done;
    if (read_dirty(cols_obj, dirty_cols, width) < 0) goto done;
    long passes = 0, solves = 0;
    const char *broken_kind = NULL;
    Py_ssize_t broken = -1;
    while (any(dirty_rows, height) || any(dirty_cols, width)) {
        if (max_passes >= 0 && passes >= max_passes) break;
        passes++;
        broken = sweep(grid, width, 1, &row_clues, width, dirty_rows, dirty_cols, &s, &solves);
        if (broken >= 0) {
            broken_kind = "row";
            break;
        }
        broken = sweep(grid, width, 0, &col_clues, height, dirty_cols, dirty_rows, &s, &solves);
        if (broken >= 0) {
            broken_kind = "column";
            break;
        }
    }
    for (Py_ssize_t i = 0; i < total; i++) {
        if (grid[i] == before[i]) continue;
        PyObject *value = PyLong_FromUnsignedLongLong(grid[i]);
        if (value == NULL) goto done;
        PyList_SetItem(cells, i, value); /* steals the reference */
    }
    PyObject *left_rows = flagged(dirty_rows, height), *left_cols = flagged(dirty_cols, width);
    if (left_rows != NULL && left_cols != NULL) {
        if (broken_kind != NULL)
            result = Py_BuildValue("(sn)llOO", broken_kind, broken, passes, solves, left_rows,
                                   left_cols);
        else
            result = Py_BuildValue("OllOO", Py_None, passes, solves, left_rows, left_cols);
    }
    Py_XDECREF(left_rows);
    Py_XDECREF(left_cols);
done:
    free(s.block);
    free(grid);
    free(dirty_rows);
    clues_free(&row_clues);
    clues_free(&col_clues);
    return result;
}

static PyMethodDef methods[] = {
    {"solve_line", solve_line, METH_VARARGS,
     "solve_line(clue, line) -> the narrowed line, the same line, or None (no placement)."},
    {"run_starts", run_starts, METH_VARARGS,
     "run_starts(clue, line) -> a list of possible starts per run, or None (no placement)."},
    {"propagate", propagate, METH_VARARGS,
     "propagate(row_clues, col_clues, width, cells, rows, cols, max_passes) -> (broken, "
     "passes, solves, rows left, columns left); cells narrowed in place."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_colourline", "The colour nonogram line solver in C.", -1, methods,
};

PyMODINIT_FUNC PyInit__colourline(void) { return PyModule_Create(&module); }
