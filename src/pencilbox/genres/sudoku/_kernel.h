/* What the parts of pencilbox's compiled Sudoku kernel share (see _kernel.c).
 *
 *   _kernel.c        the Python module: argument checks, batches, the GIL, results;
 *   _kernel_grid.c   the search for every box size (one candidate mask per cell);
 *   _kernel_bands.c  the 9x9 search (digit boards in band-sized words, minirow tables);
 *   _kernel_logic.c  the hot loops of the human-style solver (logic/: forcing chains and
 *                    nets, chain searches).
 */
#ifndef PENCILBOX_SUDOKU_KERNEL_H
#define PENCILBOX_SUDOKU_KERNEL_H

#include <stddef.h>
#include <stdint.h>

enum { KERNEL_STOP_NONE = 0, KERNEL_STOP_NODES = 1, KERNEL_STOP_TIME = 2, KERNEL_STOP_MEMORY = 3 };

/* Seconds on a clock that only moves forward where there is one (the time budgets). */
double kernel_now(void);

typedef struct {
    long limit;          /* stop after this many solutions */
    long long max_nodes; /* 0: no node budget */
    double end;          /* deadline on kernel_now()'s clock; 0: none */
} Limits;

typedef struct {
    uint8_t *solutions; /* `found` grids of N*N digits (1..N), malloc'ed room for `room` */
    long found, room;
    long long nodes;   /* boards propagated */
    long long guesses; /* branches taken on a copy of the board */
    int stop;          /* KERNEL_STOP_* */
    int by_singles;    /* (grid search only) the root's singles filled the grid */
} Result;

/* Room for one more solution of `cells` digits; 0 when memory ran out (stop is set). */
int result_room(Result *r, int cells);

/* Box size n (2..5): the givens (N*N digits, 0 = empty). Grid tables are built on first use
 * of a size, so the first call for a size must hold the GIL. */
void grid_solve(const uint8_t *givens, int n, const Limits *limits, Result *result);
void grid_prepare(int n);

/* 9x9 only. bands_init() once (with the GIL) before the first call. */
void bands_init(void);
void bands_solve(const uint8_t *givens, const Limits *limits, Result *result);
/* Whether naked and hidden singles alone fill the grid (the "singles" grade). */
int bands_singles_fill(const uint8_t *givens);

/* The human-style solver's loops (_kernel_logic.c), as Python functions (METH_FASTCALL). */
#ifdef PY_SSIZE_T_CLEAN
PyObject *logic_propagate(PyObject *self, PyObject *const *args, Py_ssize_t nargs);
PyObject *logic_implications_all(PyObject *self, PyObject *const *args, Py_ssize_t nargs);
PyObject *logic_chain_scan(PyObject *self, PyObject *const *args, Py_ssize_t nargs);
PyObject *logic_als_rcc(PyObject *self, PyObject *const *args, Py_ssize_t nargs);
PyObject *logic_als_scan(PyObject *self, PyObject *const *args, Py_ssize_t nargs);
PyObject *logic_sdc_pair(PyObject *self, PyObject *const *args, Py_ssize_t nargs);
PyObject *logic_grouped_links(PyObject *self, PyObject *const *args, Py_ssize_t nargs);
PyObject *logic_fish_scan(PyObject *self, PyObject *const *args, Py_ssize_t nargs);
#endif

#endif
