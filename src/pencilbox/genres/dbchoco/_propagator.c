/* The Double Choco rules as a CaDiCaL external propagator, compiled (python-sat's IPASIR-UP).
 *
 * search.py encodes the local rules as clauses over one variable per inner edge (true = wall)
 * and attaches an object of this type to CaDiCaL. python-sat calls its methods by name, so
 * the object speaks python-sat's Propagator protocol (on_assignment, on_new_level,
 * on_backtrack, propagate, has_clause, add_clause, check_model, decide, provide_reason); being
 * C, each call costs a method dispatch instead of a Python frame (the pure-Python propagator
 * of propagator.py spent more in its callbacks than the search saved).
 *
 * After each round of unit propagation (`propagate`) the partial assignment is checked; a
 * broken rule becomes a clause that the current assignment falsifies (its reason), handed to
 * CaDiCaL through has_clause/add_clause, so it backjumps and learns. Three labellings of the
 * cells are made per check: *units* (cells of one colour joined by open edges: part of one
 * area), *pots* (one colour, joined by edges that are not walls: where an area can still
 * reach) and *blocks* (both colours, joined by open edges). The checks, cheapest first:
 *   A  a wall between two cells of one block (reason: the wall and the open path around it);
 *   B  two different numbers in one block (the open path between them);
 *   C  a unit bigger than its number (n+1 cells of an open tree from the number);
 *   D  a pot smaller than its number (the walls around the pot);
 *   E  one block reaching two pots of one colour: two areas of that colour (path + walls);
 *   F  a block whose cells of one colour outnumber what the other colour's pot can hold, or
 *      either colour's cells its number (the block's open tree, and the pot's walls);
 *   G  a block closed by walls that is not one white and one gray area of the same shape;
 *   H  a unit that fits nowhere in the other colour: every area is matched by a congruent
 *      one in its block, so each unit's shape (rotated or reflected) must lie on cells of
 *      the other colour, across no wall, in a pot next to the unit's own pot (reason: the
 *      unit's open tree, the walls around the pots involved, the walls that keep other pots
 *      away, and one wall for each placement that a wall alone blocks).
 * A complete assignment passing every check is an answer (then G holds for every block).
 * check_model records it and, when more are wanted, hands CaDiCaL the clause that forbids it.
 *
 * A deadline, a budget of complete models and Ctrl-C (the `interrupted` callable, polled with
 * the clock) end the search with the empty clause (reported as `stopped`, never mistaken for
 * "no answer").
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <structmember.h>

enum { STOP_NONE = 0, STOP_TIME = 1, STOP_BUDGET = 2, STOP_INTERRUPT = 3 };

typedef struct {
    PyObject_HEAD
    /* the board */
    int width, height, ncells, nedges, max_var;
    uint8_t *gray;       /* per cell: 1 gray */
    int *number;         /* per cell: the clue, 0 for none or ? */
    int *end_a, *end_b;  /* per edge: its cells */
    int *nbr_count;      /* per cell */
    int *nbr_cell;       /* cell * 4 + k */
    int *nbr_edge;
    int *var;            /* per edge: its variable */
    int *edge_of;        /* per variable 0..max_var: its edge or -1 */
    /* the assignment as notified */
    int8_t *value;       /* per edge: 1 wall, -1 open, 0 unassigned */
    int8_t *saved;       /* the notified values while check_model looks at a model */
    uint8_t *fixed;      /* per edge: assigned for good */
    int *trail, trail_len;
    int *level_start, levels, level_cap;
    int checked;         /* trail length at the last check */
    /* labellings (per cell) and members (cells sorted by label) */
    int *unit, *pot, *block;
    int *unit_start, *unit_cells, nunits;
    int *pot_start, *pot_cells, npots;
    int *block_start, *block_cells, nblocks;
    /* scratch */
    int *stack, *parent, *seen, stamp, *mark, mark_stamp;
    int *lits, nlits;    /* the clause being built */
    int *shape, *image;  /* 2 ints per cell */
    int *pairs;          /* 2 ints per edge */
    int *candidate;      /* per pot: marked as a candidate */
    /* output */
    PyObject *pending;   /* list of clauses (lists of ints) for the solver */
    PyObject *found;     /* list of answers (lists of bools per edge) */
    int limit;
    long max_models, models;
    double deadline;
    PyObject *interrupted; /* a callable polled with the clock: True after Ctrl-C, or None */
    int stopped;
    long looks, conflicts[8], conflicts_before[8];
    char is_lazy;
} Prop;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* -- labelling ------------------------------------------------------------------------------ */
enum { BY_UNIT, BY_POT, BY_BLOCK };

static int joins(const Prop *p, int kind, int edge)
{
    int v = p->value[edge];
    if (kind == BY_BLOCK)
        return v == -1;
    if (p->gray[p->end_a[edge]] != p->gray[p->end_b[edge]])
        return 0;
    return kind == BY_UNIT ? v == -1 : v != 1;
}

/* Label the components of `kind`; members listed label by label (counting sort). */
static int label(Prop *p, int kind, int *lab, int *start, int *cells)
{
    int n = p->ncells, count = 0;
    for (int i = 0; i < n; i++)
        lab[i] = -1;
    for (int s = 0; s < n; s++) {
        if (lab[s] >= 0)
            continue;
        int top = 0;
        p->stack[top++] = s;
        lab[s] = count;
        while (top) {
            int c = p->stack[--top];
            for (int k = 0; k < p->nbr_count[c]; k++) {
                int d = p->nbr_cell[c * 4 + k];
                if (lab[d] < 0 && joins(p, kind, p->nbr_edge[c * 4 + k])) {
                    lab[d] = count;
                    p->stack[top++] = d;
                }
            }
        }
        count++;
    }
    for (int i = 0; i <= count; i++)
        start[i] = 0;
    for (int i = 0; i < n; i++)
        start[lab[i] + 1]++;
    for (int i = 0; i < count; i++)
        start[i + 1] += start[i];
    for (int l = 0; l < count; l++) /* a cursor per label */
        p->stack[l] = start[l];
    for (int i = 0; i < n; i++)
        cells[p->stack[lab[i]]++] = i;
    return count;
}

/* -- reasons -------------------------------------------------------------------------------- */
static void lit(Prop *p, int literal) { p->lits[p->nlits++] = literal; }

static void open_edge(Prop *p, int e) { lit(p, p->var[e]); }  /* reason: e is open */
static void wall_edge(Prop *p, int e) { lit(p, -p->var[e]); } /* reason: e is a wall */

/* BFS over edges joining by `kind` from `start`; parent[] holds the edge into each cell. Stops
 * when `goal` is reached or `limit` cells are seen (0: no limit). Returns the cells seen. */
static int search(Prop *p, int kind, int start, int goal, int limit)
{
    p->stamp++;
    int head = 0, tail = 0;
    p->stack[tail++] = start;
    p->seen[start] = p->stamp;
    p->parent[start] = -1;
    while (head < tail) {
        int c = p->stack[head++];
        if (c == goal || (limit && tail >= limit))
            break;
        for (int k = 0; k < p->nbr_count[c]; k++) {
            int d = p->nbr_cell[c * 4 + k], e = p->nbr_edge[c * 4 + k];
            if (p->seen[d] != p->stamp && joins(p, kind, e)) {
                p->seen[d] = p->stamp;
                p->parent[d] = e;
                p->stack[tail++] = d;
                if (d == goal || (limit && tail >= limit))
                    return tail;
            }
        }
    }
    return tail;
}

static int other_end(const Prop *p, int e, int c) { return p->end_a[e] == c ? p->end_b[e] : p->end_a[e]; }

/* Reason: the open path from a to b (a BFS tree path over open edges). */
static void open_path(Prop *p, int a, int b)
{
    search(p, BY_BLOCK, a, b, 0);
    for (int c = b; c != a;) {
        int e = p->parent[c];
        open_edge(p, e);
        c = other_end(p, e, c);
    }
}

/* Reason: an open tree of the first `limit` cells reached from `start` (0: all). */
static void open_tree(Prop *p, int kind, int start, int limit)
{
    int seen = search(p, kind, start, -1, limit);
    for (int i = 1; i < seen; i++)
        open_edge(p, p->parent[p->stack[i]]);
}

/* Reason: the walls that keep a pot from growing (its same-colour edges to other cells). */
static void pot_walls(Prop *p, int pot)
{
    for (int i = p->pot_start[pot]; i < p->pot_start[pot + 1]; i++) {
        int c = p->pot_cells[i];
        for (int k = 0; k < p->nbr_count[c]; k++) {
            int d = p->nbr_cell[c * 4 + k];
            if (p->pot[d] != pot && p->gray[d] == p->gray[c])
                wall_edge(p, p->nbr_edge[c * 4 + k]);
        }
    }
}

/* Reason: the walls around a block (every edge from it to another block). */
static void block_walls(Prop *p, int block)
{
    for (int i = p->block_start[block]; i < p->block_start[block + 1]; i++) {
        int c = p->block_cells[i];
        for (int k = 0; k < p->nbr_count[c]; k++)
            if (p->block[p->nbr_cell[c * 4 + k]] != block)
                wall_edge(p, p->nbr_edge[c * 4 + k]);
    }
}

/* Hand the clause built in lits[] to the solver (duplicates removed). */
static int emit(Prop *p, int check)
{
    p->mark_stamp++;
    PyObject *clause = PyList_New(0);
    if (clause == NULL)
        return -1;
    for (int i = 0; i < p->nlits; i++) {
        int l = p->lits[i], v = abs(l);
        int key = v * 2 + (l > 0);
        if (p->mark[key] == p->mark_stamp)
            continue;
        p->mark[key] = p->mark_stamp;
        PyObject *item = PyLong_FromLong(l);
        if (item == NULL || PyList_Append(clause, item) < 0) {
            Py_XDECREF(item);
            Py_DECREF(clause);
            return -1;
        }
        Py_DECREF(item);
    }
    p->nlits = 0;
    p->conflicts[check]++;
    int failed = PyList_Append(p->pending, clause);
    Py_DECREF(clause);
    return failed < 0 ? -1 : 1;
}

/* -- the checks (1: a clause was queued, 0: nothing broken, -1: Python error) ----------------- */
static int check_walls_inside(Prop *p)
{
    for (int e = 0; e < p->nedges; e++) {
        if (p->value[e] == 1 && p->block[p->end_a[e]] == p->block[p->end_b[e]]) {
            wall_edge(p, e);
            open_path(p, p->end_a[e], p->end_b[e]);
            return emit(p, 0);
        }
    }
    return 0;
}

static int check_numbers(Prop *p)
{
    for (int b = 0; b < p->nblocks; b++) {
        int first = -1;
        for (int i = p->block_start[b]; i < p->block_start[b + 1]; i++) {
            int c = p->block_cells[i];
            if (!p->number[c])
                continue;
            if (first < 0)
                first = c;
            else if (p->number[c] != p->number[first]) {
                open_path(p, first, c);
                return emit(p, 1);
            }
        }
    }
    for (int c = 0; c < p->ncells; c++) {
        int n = p->number[c];
        if (!n)
            continue;
        int unit_size = p->unit_start[p->unit[c] + 1] - p->unit_start[p->unit[c]];
        if (unit_size > n) {
            open_tree(p, BY_UNIT, c, n + 1);
            return emit(p, 2);
        }
        int pot_size = p->pot_start[p->pot[c] + 1] - p->pot_start[p->pot[c]];
        if (pot_size < n) {
            pot_walls(p, p->pot[c]);
            return emit(p, 3);
        }
    }
    return 0;
}

static int pot_size(const Prop *p, int pot) { return p->pot_start[pot + 1] - p->pot_start[pot]; }

/* E and F: what one block says about the pots of its two colours. */
static int check_block_pots(Prop *p)
{
    for (int b = 0; b < p->nblocks; b++) {
        int first[2] = {-1, -1}, count[2] = {0, 0}, n = 0;
        for (int i = p->block_start[b]; i < p->block_start[b + 1]; i++) {
            int c = p->block_cells[i], g = p->gray[c];
            count[g]++;
            if (p->number[c])
                n = p->number[c];
            if (first[g] < 0)
                first[g] = c;
            else if (p->pot[c] != p->pot[first[g]]) {
                open_path(p, first[g], c);
                pot_walls(p, p->pot[c]);
                return emit(p, 4);
            }
        }
        if (n && (count[0] > n || count[1] > n)) {
            open_tree(p, BY_BLOCK, p->block_cells[p->block_start[b]], 0);
            return emit(p, 5);
        }
        for (int g = 0; g < 2; g++) {
            if (first[g] < 0)
                continue;
            int need = count[!g] > n ? count[!g] : n;
            if (pot_size(p, p->pot[first[g]]) < need) {
                open_tree(p, BY_BLOCK, first[g], 0);
                pot_walls(p, p->pot[first[g]]);
                return emit(p, 5);
            }
        }
    }
    return 0;
}

/* -- shapes --------------------------------------------------------------------------------- */
static int cmp_cell(const void *x, const void *y)
{
    const int *a = x, *b = y;
    return a[0] != b[0] ? a[0] - b[0] : a[1] - b[1];
}

/* Transform t (0..7) of (r, c): rotations by the low two bits, then a mirror. */
static void transform(int t, int r, int c, int *out)
{
    int rr = r, cc = c;
    for (int k = 0; k < (t & 3); k++) {
        int tmp = rr;
        rr = cc;
        cc = -tmp;
    }
    if (t & 4)
        cc = -cc;
    out[0] = rr;
    out[1] = cc;
}

/* The n cells in shape[] (pairs) transformed by t into out[], normalised and sorted. */
static void normalised(const int *shape, int n, int t, int *out)
{
    int min_r = 1 << 30, min_c = 1 << 30;
    for (int i = 0; i < n; i++) {
        transform(t, shape[2 * i], shape[2 * i + 1], out + 2 * i);
        if (out[2 * i] < min_r)
            min_r = out[2 * i];
        if (out[2 * i + 1] < min_c)
            min_c = out[2 * i + 1];
    }
    for (int i = 0; i < n; i++) {
        out[2 * i] -= min_r;
        out[2 * i + 1] -= min_c;
    }
    qsort(out, (size_t)n, 2 * sizeof(int), cmp_cell);
}

/* Whether the cells a[] and b[] (n each, pairs) have the same shape. */
static int congruent(Prop *p, const int *a, const int *b, int n)
{
    int *x = p->image, *y = p->image + 2 * p->ncells;
    normalised(b, n, 0, y);
    for (int t = 0; t < 8; t++) {
        normalised(a, n, t, x);
        if (memcmp(x, y, (size_t)(2 * n) * sizeof(int)) == 0)
            return 1;
    }
    return 0;
}

/* G: a block closed by walls must be one white and one gray area of the same shape. */
static int check_closed_blocks(Prop *p)
{
    for (int b = 0; b < p->nblocks; b++) {
        int closed = 1, count[2] = {0, 0};
        for (int i = p->block_start[b]; i < p->block_start[b + 1] && closed; i++) {
            int c = p->block_cells[i];
            count[p->gray[c]]++;
            for (int k = 0; k < p->nbr_count[c]; k++)
                if (p->block[p->nbr_cell[c * 4 + k]] != b && p->value[p->nbr_edge[c * 4 + k]] != 1)
                    closed = 0;
        }
        if (!closed)
            continue;
        int good = count[0] == count[1] && count[0] > 0;
        if (good) {
            /* one area per colour: every cell of a colour in the pot of the first one (the
             * pots of a closed block stay inside it), then the shapes */
            int first[2] = {-1, -1}, *shape[2] = {p->shape, p->shape + p->ncells}, len[2] = {0, 0};
            for (int i = p->block_start[b]; i < p->block_start[b + 1] && good; i++) {
                int c = p->block_cells[i], g = p->gray[c];
                if (first[g] < 0)
                    first[g] = c;
                else if (p->pot[c] != p->pot[first[g]])
                    good = 0;
                shape[g][2 * len[g]] = c / p->width;
                shape[g][2 * len[g] + 1] = c % p->width;
                len[g]++;
            }
            if (good && count[0] > 1)
                good = congruent(p, shape[0], shape[1], count[0]);
        }
        if (!good) {
            open_tree(p, BY_BLOCK, p->block_cells[p->block_start[b]], 0);
            block_walls(p, b);
            return emit(p, 6);
        }
    }
    return 0;
}

/* H: every unit of two cells or more must fit, under one of the 8 symmetries, on cells of the
 * other colour joined by edges that are not walls, anchored in a pot next to its own pot. */
static int unit_fits(Prop *p, int u, int *blockers, int *nblockers)
{
    int n = p->unit_start[u + 1] - p->unit_start[u], w = p->width, h = p->height;
    int *cells = p->unit_cells + p->unit_start[u];
    int g = p->gray[cells[0]], own = p->pot[cells[0]];
    /* the shape, with its inner pairs of neighbours as indices into the sorted cells */
    int *shape = p->shape, npairs = 0;
    for (int i = 0; i < n; i++) {
        shape[2 * i] = cells[i] / w;
        shape[2 * i + 1] = cells[i] % w;
    }
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++) {
            int dr = shape[2 * j] - shape[2 * i], dc = shape[2 * j + 1] - shape[2 * i + 1];
            if ((dr == 0 && (dc == 1 || dc == -1)) || (dc == 0 && (dr == 1 || dr == -1))) {
                p->pairs[2 * npairs] = i;
                p->pairs[2 * npairs + 1] = j;
                npairs++;
            }
        }
    /* candidate pots: the other colour's pots across an edge that is not a wall */
    p->mark_stamp++;
    for (int i = p->pot_start[own]; i < p->pot_start[own + 1]; i++) {
        int c = p->pot_cells[i];
        for (int k = 0; k < p->nbr_count[c]; k++) {
            int d = p->nbr_cell[c * 4 + k];
            if (p->gray[d] != g && p->value[p->nbr_edge[c * 4 + k]] != 1)
                p->candidate[p->pot[d]] = p->mark_stamp;
        }
    }
    int *img = p->image;
    for (int t = 0; t < 8; t++) {
        /* image of every cell under t, relative to cell 0's image */
        int base[2];
        transform(t, shape[0], shape[1], base);
        for (int i = 0; i < n; i++) {
            transform(t, shape[2 * i], shape[2 * i + 1], img + 2 * i);
            img[2 * i] -= base[0];
            img[2 * i + 1] -= base[1];
        }
        for (int o = 0; o < p->ncells; o++) {
            if (p->gray[o] == g || p->candidate[p->pot[o]] != p->mark_stamp)
                continue;
            int r0 = o / w, c0 = o % w, ok = 1, blocker = -1;
            for (int i = 0; i < n && ok; i++) {
                int r = r0 + img[2 * i], c = c0 + img[2 * i + 1];
                if (r < 0 || r >= h || c < 0 || c >= w || p->gray[r * w + c] == g)
                    ok = 0;
            }
            if (!ok)
                continue;
            for (int k = 0; k < npairs; k++) {
                int i = p->pairs[2 * k], j = p->pairs[2 * k + 1];
                int a = (r0 + img[2 * i]) * w + c0 + img[2 * i + 1];
                int b = (r0 + img[2 * j]) * w + c0 + img[2 * j + 1];
                int e = -1;
                for (int q = 0; q < p->nbr_count[a]; q++)
                    if (p->nbr_cell[a * 4 + q] == b)
                        e = p->nbr_edge[a * 4 + q];
                if (p->value[e] == 1) {
                    blocker = e;
                    break;
                }
            }
            if (blocker < 0)
                return 1;
            blockers[(*nblockers)++] = blocker;
        }
    }
    return 0;
}

static int check_shapes(Prop *p)
{
    int *blockers = p->stack + p->ncells; /* the second half of the scratch stack */
    for (int u = 0; u < p->nunits; u++) {
        int n = p->unit_start[u + 1] - p->unit_start[u];
        if (n < 2)
            continue;
        int nblockers = 0;
        if (unit_fits(p, u, blockers, &nblockers))
            continue;
        int first = p->unit_cells[p->unit_start[u]], g = p->gray[first], own = p->pot[first];
        for (int i = 0; i < nblockers; i++)
            wall_edge(p, blockers[i]);
        /* the candidates' walls, and the walls that keep the other pots away */
        for (int q = 0; q < p->npots; q++)
            if (p->candidate[q] == p->mark_stamp)
                pot_walls(p, q);
        pot_walls(p, own);
        for (int i = p->pot_start[own]; i < p->pot_start[own + 1]; i++) {
            int c = p->pot_cells[i];
            for (int k = 0; k < p->nbr_count[c]; k++) {
                int d = p->nbr_cell[c * 4 + k];
                if (p->gray[d] != g && p->value[p->nbr_edge[c * 4 + k]] == 1)
                    wall_edge(p, p->nbr_edge[c * 4 + k]);
            }
        }
        open_tree(p, BY_UNIT, first, 0);
        return emit(p, 7);
    }
    return 0;
}

/* Label everything and run the checks; 1 when a clause was queued. */
static int check(Prop *p)
{
    p->looks++;
    p->nunits = label(p, BY_UNIT, p->unit, p->unit_start, p->unit_cells);
    p->npots = label(p, BY_POT, p->pot, p->pot_start, p->pot_cells);
    p->nblocks = label(p, BY_BLOCK, p->block, p->block_start, p->block_cells);
    int found;
    if ((found = check_walls_inside(p)) != 0)
        return found;
    if ((found = check_numbers(p)) != 0)
        return found;
    if ((found = check_block_pots(p)) != 0)
        return found;
    if ((found = check_closed_blocks(p)) != 0)
        return found;
    return check_shapes(p);
}

/* -- the Python type ------------------------------------------------------------------------ */
static void prop_free_arrays(Prop *p)
{
    void **arrays[] = {
        (void **)&p->gray,       (void **)&p->number,      (void **)&p->end_a,
        (void **)&p->end_b,      (void **)&p->nbr_count,   (void **)&p->nbr_cell,
        (void **)&p->nbr_edge,   (void **)&p->var,         (void **)&p->edge_of,
        (void **)&p->value,      (void **)&p->saved,       (void **)&p->fixed,
        (void **)&p->trail,      (void **)&p->level_start, (void **)&p->unit,
        (void **)&p->pot,        (void **)&p->block,       (void **)&p->unit_start,
        (void **)&p->unit_cells, (void **)&p->pot_start,   (void **)&p->pot_cells,
        (void **)&p->block_start, (void **)&p->block_cells, (void **)&p->stack,
        (void **)&p->parent,     (void **)&p->seen,        (void **)&p->mark,
        (void **)&p->lits,       (void **)&p->shape,       (void **)&p->image,
        (void **)&p->pairs,      (void **)&p->candidate,
    };
    for (size_t i = 0; i < sizeof(arrays) / sizeof(arrays[0]); i++) {
        free(*arrays[i]);
        *arrays[i] = NULL;
    }
}

static void prop_dealloc(Prop *p)
{
    prop_free_arrays(p);
    Py_XDECREF(p->pending);
    Py_XDECREF(p->found);
    Py_XDECREF(p->interrupted);
    Py_TYPE(p)->tp_free((PyObject *)p);
}

static int read_ints(PyObject *seq, int *out, Py_ssize_t n, const char *what)
{
    PyObject *fast = PySequence_Fast(seq, what);
    if (fast == NULL)
        return -1;
    if (PySequence_Fast_GET_SIZE(fast) != n) {
        PyErr_Format(PyExc_ValueError, "%s: expected %zd items", what, n);
        Py_DECREF(fast);
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, i));
        if (v == -1 && PyErr_Occurred()) {
            Py_DECREF(fast);
            return -1;
        }
        out[i] = (int)v;
    }
    Py_DECREF(fast);
    return 0;
}

#define ALLOC(field, count) \
    if ((p->field = calloc((size_t)(count) + 1, sizeof(*p->field))) == NULL) \
        goto nomem;

/* Propagator(width, height, gray, numbers, variables, limit, max_models, seconds,
 *            interrupted=None) */
static int prop_init(Prop *p, PyObject *args, PyObject *kwds)
{
    int width, height, limit;
    long max_models;
    double seconds;
    PyObject *gray, *numbers, *variables, *interrupted = Py_None;
    static char *names[] = {"width",      "height",  "gray",        "numbers", "variables",
                            "limit",      "max_models", "seconds",  "interrupted", NULL};
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "iiOOOild|O", names, &width, &height, &gray,
                                     &numbers, &variables, &limit, &max_models, &seconds,
                                     &interrupted))
        return -1;
    if (interrupted != Py_None && !PyCallable_Check(interrupted)) {
        PyErr_SetString(PyExc_TypeError, "interrupted must be callable or None");
        return -1;
    }
    Py_INCREF(interrupted);
    Py_XSETREF(p->interrupted, interrupted);
    if (width < 1 || height < 1 || width > 4096 || height > 4096) {
        PyErr_SetString(PyExc_ValueError, "bad grid size");
        return -1;
    }
    prop_free_arrays(p);
    int n = width * height, m = (width - 1) * height + width * (height - 1);
    p->width = width;
    p->height = height;
    p->ncells = n;
    p->nedges = m;
    ALLOC(gray, n) ALLOC(number, n) ALLOC(end_a, m) ALLOC(end_b, m) ALLOC(nbr_count, n)
    ALLOC(nbr_cell, 4 * n) ALLOC(nbr_edge, 4 * n) ALLOC(var, m) ALLOC(value, m) ALLOC(saved, m) ALLOC(fixed, m)
    ALLOC(trail, m) ALLOC(level_start, m + 2) ALLOC(unit, n) ALLOC(pot, n) ALLOC(block, n)
    ALLOC(unit_start, n + 1) ALLOC(unit_cells, n) ALLOC(pot_start, n + 1) ALLOC(pot_cells, n)
    ALLOC(block_start, n + 1) ALLOC(block_cells, n) ALLOC(stack, 10 * n)
    ALLOC(parent, n) ALLOC(seen, n) ALLOC(lits, 8 * m + 16 * n) ALLOC(shape, 2 * n)
    ALLOC(image, 4 * n) ALLOC(pairs, 4 * n) ALLOC(candidate, n)
    p->level_cap = m + 2;
    int *tmp = malloc(sizeof(int) * (size_t)n);
    if (tmp == NULL)
        goto nomem;
    if (read_ints(gray, tmp, n, "gray") < 0) {
        free(tmp);
        return -1;
    }
    for (int i = 0; i < n; i++)
        p->gray[i] = tmp[i] != 0;
    free(tmp);
    if (read_ints(numbers, p->number, n, "numbers") < 0 ||
        read_ints(variables, p->var, m, "variables") < 0)
        return -1;
    for (int i = 0; i < n; i++)
        if (p->number[i] < 0)
            p->number[i] = 0;
    int e = 0;
    for (int r = 0; r < height; r++)
        for (int c = 0; c + 1 < width; c++, e++) {
            p->end_a[e] = r * width + c;
            p->end_b[e] = r * width + c + 1;
        }
    for (int r = 0; r + 1 < height; r++)
        for (int c = 0; c < width; c++, e++) {
            p->end_a[e] = r * width + c;
            p->end_b[e] = (r + 1) * width + c;
        }
    for (e = 0; e < m; e++) {
        int a = p->end_a[e], b = p->end_b[e];
        p->nbr_cell[a * 4 + p->nbr_count[a]] = b;
        p->nbr_edge[a * 4 + p->nbr_count[a]++] = e;
        p->nbr_cell[b * 4 + p->nbr_count[b]] = a;
        p->nbr_edge[b * 4 + p->nbr_count[b]++] = e;
    }
    p->max_var = 0;
    for (e = 0; e < m; e++) {
        if (p->var[e] < 1) {
            PyErr_SetString(PyExc_ValueError, "variables must be positive");
            return -1;
        }
        if (p->var[e] > p->max_var)
            p->max_var = p->var[e];
    }
    p->edge_of = malloc(sizeof(int) * (size_t)(p->max_var + 1));
    p->mark = calloc((size_t)(2 * p->max_var + 2), sizeof(int));
    if (p->edge_of == NULL || p->mark == NULL)
        goto nomem;
    for (int v = 0; v <= p->max_var; v++)
        p->edge_of[v] = -1;
    for (e = 0; e < m; e++)
        p->edge_of[p->var[e]] = e;
    Py_XSETREF(p->pending, PyList_New(0));
    Py_XSETREF(p->found, PyList_New(0));
    if (p->pending == NULL || p->found == NULL)
        return -1;
    p->limit = limit;
    p->max_models = max_models;
    p->deadline = seconds > 0 ? now() + seconds : 0;
    p->is_lazy = 0;
    return 0;
nomem:
    PyErr_NoMemory();
    return -1;
}

static PyObject *prop_on_assignment(Prop *p, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs < 1) {
        PyErr_SetString(PyExc_TypeError, "on_assignment(lit, fixed=False)");
        return NULL;
    }
    long l = PyLong_AsLong(args[0]);
    if (l == -1 && PyErr_Occurred())
        return NULL;
    int fixed = nargs > 1 ? PyObject_IsTrue(args[1]) : 0;
    long v = labs(l);
    if (v <= p->max_var && p->edge_of[v] >= 0) {
        int e = p->edge_of[v];
        p->value[e] = l > 0 ? 1 : -1;
        if (fixed > 0)
            p->fixed[e] = 1;
        else if (p->trail_len < p->nedges)
            p->trail[p->trail_len++] = e;
    }
    Py_RETURN_NONE;
}

static PyObject *prop_on_new_level(Prop *p, PyObject *unused)
{
    if (p->levels < p->level_cap)
        p->level_start[p->levels] = p->trail_len;
    p->levels++;
    Py_RETURN_NONE;
}

static PyObject *prop_on_backtrack(Prop *p, PyObject *arg)
{
    long to = PyLong_AsLong(arg);
    if (to == -1 && PyErr_Occurred())
        return NULL;
    if (to < p->levels) {
        int keep = to < p->level_cap ? p->level_start[to] : p->trail_len;
        for (int i = keep; i < p->trail_len; i++)
            if (!p->fixed[p->trail[i]])
                p->value[p->trail[i]] = 0;
        if (keep < p->trail_len)
            p->trail_len = keep;
        p->levels = (int)to;
        if (p->checked > p->trail_len)
            p->checked = p->trail_len;
    }
    Py_RETURN_NONE;
}

static void stop(Prop *p, int why)
{
    p->stopped = why;
    PyObject *empty = PyList_New(0);
    if (empty != NULL) {
        PyList_SetSlice(p->pending, 0, PyList_GET_SIZE(p->pending), NULL);
        PyList_Append(p->pending, empty);
        Py_DECREF(empty);
    }
}

/* The clock and Ctrl-C, looked at now and then: calling `interrupted` (Python) also lets
 * Python run the signal handler that notes a Ctrl-C, which pure C callbacks never do. */
static int out_of_time(Prop *p)
{
    if (!p->stopped && p->deadline > 0 && now() > p->deadline)
        stop(p, STOP_TIME);
    if (!p->stopped && p->interrupted != NULL && p->interrupted != Py_None) {
        PyObject *answer = PyObject_CallNoArgs(p->interrupted);
        if (answer == NULL)
            PyErr_Clear();
        else {
            if (PyObject_IsTrue(answer) > 0)
                stop(p, STOP_INTERRUPT);
            Py_DECREF(answer);
        }
    }
    return p->stopped != STOP_NONE;
}

static PyObject *prop_propagate(Prop *p, PyObject *unused)
{
    if (PyList_GET_SIZE(p->pending) == 0 && p->trail_len != p->checked) {
        p->checked = p->trail_len;
        if ((p->looks & 255) == 0 && out_of_time(p))
            return PyList_New(0);
        if (check(p) < 0)
            return NULL;
    }
    return PyList_New(0);
}

static PyObject *prop_check_model(Prop *p, PyObject *model)
{
    if (p->stopped || out_of_time(p))
        Py_RETURN_FALSE;
    p->models++;
    if (p->max_models > 0 && p->models > p->max_models) {
        stop(p, STOP_BUDGET);
        Py_RETURN_FALSE;
    }
    PyObject *fast = PySequence_Fast(model, "check_model needs a list of literals");
    if (fast == NULL)
        return NULL;
    Py_ssize_t size = PySequence_Fast_GET_SIZE(fast);
    memcpy(p->saved, p->value, (size_t)p->nedges);
    for (int e = 0; e < p->nedges; e++) {
        int v = p->var[e];
        if (v > size) {
            memcpy(p->value, p->saved, (size_t)p->nedges);
            Py_DECREF(fast);
            PyErr_SetString(PyExc_ValueError, "the model is shorter than the variables");
            return NULL;
        }
        long l = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, v - 1));
        p->value[e] = l > 0 ? 1 : -1;
    }
    Py_DECREF(fast);
    int found = check(p);
    /* back to the assignment as notified */
    memcpy(p->value, p->saved, (size_t)p->nedges);
    p->checked = -1;
    if (found < 0)
        return NULL;
    if (found > 0)
        Py_RETURN_FALSE;
    /* an answer: keep it, and forbid it if more are wanted */
    PyObject *walls = PyList_New(p->nedges), *forbid = PyList_New(p->nedges);
    if (walls == NULL || forbid == NULL) {
        Py_XDECREF(walls);
        Py_XDECREF(forbid);
        return NULL;
    }
    fast = PySequence_Fast(model, "model");
    for (int e = 0; e < p->nedges; e++) {
        long l = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, p->var[e] - 1));
        PyList_SET_ITEM(walls, e, PyBool_FromLong(l > 0));
        PyList_SET_ITEM(forbid, e, PyLong_FromLong(l > 0 ? -p->var[e] : p->var[e]));
    }
    Py_DECREF(fast);
    int failed = PyList_Append(p->found, walls);
    Py_DECREF(walls);
    if (failed < 0 || PyList_GET_SIZE(p->found) >= p->limit) {
        Py_DECREF(forbid);
        if (failed < 0)
            return NULL;
        Py_RETURN_TRUE;
    }
    failed = PyList_Append(p->pending, forbid);
    Py_DECREF(forbid);
    if (failed < 0)
        return NULL;
    Py_RETURN_FALSE;
}

static PyObject *prop_decide(Prop *p, PyObject *unused) { return PyLong_FromLong(0); }

static PyObject *prop_provide_reason(Prop *p, PyObject *arg) { return PyList_New(0); }

static PyObject *prop_has_clause(Prop *p, PyObject *unused)
{
    return PyBool_FromLong(PyList_GET_SIZE(p->pending) > 0);
}

static PyObject *prop_add_clause(Prop *p, PyObject *unused)
{
    Py_ssize_t size = PyList_GET_SIZE(p->pending);
    if (size == 0)
        return PyList_New(0);
    PyObject *clause = PyList_GET_ITEM(p->pending, size - 1);
    Py_INCREF(clause);
    if (PyList_SetSlice(p->pending, size - 1, size, NULL) < 0) {
        Py_DECREF(clause);
        return NULL;
    }
    return clause;
}

/* conflict(values) -> (check, clause) or None: the checks on an assignment given per edge (1
 * wall, -1 open, 0 undecided), outside any search (the logic steps' rule check, and tests).
 * `check` numbers the check that broke, in the order of the list at the top (0 = A). */
static PyObject *prop_conflict(Prop *p, PyObject *values)
{
    int8_t *saved = malloc((size_t)p->nedges);
    int *given = malloc(sizeof(int) * (size_t)p->nedges);
    if (saved == NULL || given == NULL) {
        free(saved);
        free(given);
        return PyErr_NoMemory();
    }
    memcpy(saved, p->value, (size_t)p->nedges);
    if (read_ints(values, given, p->nedges, "values") < 0) {
        free(saved);
        free(given);
        return NULL;
    }
    for (int e = 0; e < p->nedges; e++)
        p->value[e] = (int8_t)(given[e] > 0 ? 1 : given[e] < 0 ? -1 : 0);
    Py_ssize_t before = PyList_GET_SIZE(p->pending);
    memcpy(p->conflicts_before, p->conflicts, sizeof(p->conflicts));
    int found = check(p);
    memcpy(p->value, saved, (size_t)p->nedges);
    free(saved);
    free(given);
    if (found < 0)
        return NULL;
    if (found == 0)
        Py_RETURN_NONE;
    int kind = 0;
    for (int k = 0; k < 8; k++) /* the check that just counted one more conflict */
        if (p->conflicts[k] > p->conflicts_before[k])
            kind = k;
    PyObject *clause = PyList_GET_ITEM(p->pending, before);
    PyObject *answer = Py_BuildValue("(iO)", kind, clause);
    PyList_SetSlice(p->pending, before, before + 1, NULL);
    return answer;
}

static PyObject *prop_counts(Prop *p, void *closure)
{
    return Py_BuildValue(
        "{s:l,s:l,s:l,s:l,s:l,s:l,s:l,s:l,s:l,s:l}", "models", p->models, "looks", p->looks,
        "wall_inside", p->conflicts[0], "two_numbers", p->conflicts[1], "unit_too_big",
        p->conflicts[2], "pot_too_small", p->conflicts[3], "two_areas", p->conflicts[4],
        "block_sizes", p->conflicts[5], "closed_block", p->conflicts[6], "no_fit",
        p->conflicts[7]);
}

static PyObject *prop_stopped(Prop *p, void *closure)
{
    if (p->stopped == STOP_TIME)
        return PyUnicode_FromString("time");
    if (p->stopped == STOP_BUDGET)
        return PyUnicode_FromString("budget");
    if (p->stopped == STOP_INTERRUPT)
        return PyUnicode_FromString("interrupted");
    Py_RETURN_NONE;
}

static PyObject *prop_found(Prop *p, void *closure)
{
    Py_INCREF(p->found);
    return p->found;
}

static PyMethodDef prop_methods[] = {
    {"on_assignment", (PyCFunction)(void (*)(void))prop_on_assignment, METH_FASTCALL,
     "on_assignment(lit, fixed=False): a watched variable got a value"},
    {"on_new_level", (PyCFunction)prop_on_new_level, METH_NOARGS, "a new decision level"},
    {"on_backtrack", (PyCFunction)prop_on_backtrack, METH_O, "on_backtrack(level)"},
    {"propagate", (PyCFunction)prop_propagate, METH_NOARGS,
     "check the partial assignment; a broken rule queues a clause; returns []"},
    {"check_model", (PyCFunction)prop_check_model, METH_O,
     "check_model(model) -> bool: True when enough answers were found"},
    {"decide", (PyCFunction)prop_decide, METH_NOARGS, "0: the solver decides"},
    {"provide_reason", (PyCFunction)prop_provide_reason, METH_O, "never called"},
    {"has_clause", (PyCFunction)prop_has_clause, METH_NOARGS, "a clause is queued"},
    {"add_clause", (PyCFunction)prop_add_clause, METH_NOARGS, "the next queued clause"},
    {"conflict", (PyCFunction)prop_conflict, METH_O,
     "conflict(values) -> (check, clause) or None (values per edge: 1 wall, -1 open, 0 "
     "undecided)"},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef prop_getset[] = {
    {"counts", (getter)prop_counts, NULL, "models, looks and clauses by check", NULL},
    {"stopped", (getter)prop_stopped, NULL, "'time', 'budget', 'interrupted' or None", NULL},
    {"found", (getter)prop_found, NULL, "the answers (lists of walls per edge)", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyMemberDef prop_members[] = {
    {"is_lazy", T_BOOL, offsetof(Prop, is_lazy), 0, "checks partial assignments too"},
    {NULL, 0, 0, 0, NULL},
};

static PyTypeObject PropType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "pencilbox.genres.dbchoco._propagator.Propagator",
    .tp_basicsize = sizeof(Prop),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Propagator(width, height, gray, numbers, variables, limit, max_models, seconds, "
              "interrupted=None)",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)prop_init,
    .tp_dealloc = (destructor)prop_dealloc,
    .tp_methods = prop_methods,
    .tp_getset = prop_getset,
    .tp_members = prop_members,
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_propagator",
    "The Double Choco rules as a compiled CaDiCaL external propagator (see _propagator.c).", -1,
    NULL,
};

PyMODINIT_FUNC PyInit__propagator(void)
{
    if (PyType_Ready(&PropType) < 0)
        return NULL;
    PyObject *m = PyModule_Create(&module);
    if (m == NULL)
        return NULL;
    Py_INCREF(&PropType);
    if (PyModule_AddObject(m, "Propagator", (PyObject *)&PropType) < 0) {
        Py_DECREF(&PropType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
