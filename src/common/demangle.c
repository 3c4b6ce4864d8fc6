/* Itanium C++ ABI demangler (see demangle.h).
 *
 * Two passes.  The parser reads the mangled name into a graph of nodes
 * (a substitution or a template parameter refers to a node made earlier,
 * so the graph is a DAG), all allocated from one arena freed at the end.
 * The printer then writes the nodes.  A type prints in two halves, left
 * and right of the declarator: "int (*)[3]" is the left half of the array
 * "int", the pointer's "(*", ")", then the array's right half "[3]".
 * Whether a node has a right half, is an array or a function may depend on
 * which element of a template parameter pack is being printed, so those
 * questions are answered while printing.
 *
 * The grammar follows the Itanium C++ ABI; the text follows llvm-cxxfilt
 * (e.g. "char const*", "'lambda'(int)", "(anonymous namespace)", "f() (.cold)",
 * no space between closing template brackets).  The parser keeps the same
 * substitution table and template parameter scopes as LLVM's demangler so
 * that "S3_" and "T0_" refer to the same components.
 *
 * Limits: RTG_DEMANGLE_MAX_IN input bytes, MAX_DEPTH nested grammar rules
 * and node levels, ARENA_MAX bytes of nodes, RTG_DEMANGLE_MAX_OUT output
 * bytes, MAX_STEPS printing steps.  Past any of them the result is NULL.
 * Not supported either (NULL, where llvm-cxxfilt shows some text): C++20
 * module names (W), requires-clauses and requires-expressions, pointer to
 * member conversions (mc), subobject expressions (so), constrained auto
 * (Dk), Objective-C protocol qualifiers and block invocations ("___Z"). */
#include "demangle.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
  MAX_DEPTH = 256,
  MAX_PRINT_DEPTH = 2048,
  ARENA_BLOCK = 64 * 1024,
  ARENA_MAX = 32 * 1024 * 1024,
};
#define MAX_STEPS (1ul << 22)
#define UNSET 0xffffffffu

/* ---- arena ---------------------------------------------------------- */

typedef struct block {
  struct block *next;
  size_t used, cap;
} block;

enum { BLOCK_HDR = (sizeof(block) + 15) & ~(size_t)15 };

typedef struct {
  block *head;
  size_t total;
} arena;

/* Zeroed memory that lives until arena_free. */
static void *arena_alloc(arena *A, size_t n) {
  n = (n + 15) & ~(size_t)15;
  if (!A->head || A->head->cap - A->head->used < n) {
    size_t cap = n > ARENA_BLOCK ? n : ARENA_BLOCK;
    if (A->total + cap > ARENA_MAX) return NULL;
    block *b = malloc(BLOCK_HDR + cap);
    if (!b) return NULL;
    b->next = A->head;
    b->used = 0;
    b->cap = cap;
    A->head = b;
    A->total += cap;
  }
  void *p = (char *)A->head + BLOCK_HDR + A->head->used;
  A->head->used += n;
  memset(p, 0, n);
  return p;
}

static void arena_free(arena *A) {
  while (A->head) {
    block *n = A->head->next;
    free(A->head);
    A->head = n;
  }
}

/* ---- nodes ---------------------------------------------------------- */

typedef struct {
  const char *p;
  size_t n;
} sv;

enum kind {
  K_NAME,        /* s */
  K_NESTED,      /* a::b */
  K_TNAME,       /* a b: a name and its template arguments */
  K_TARGS,       /* <v...> */
  K_PACK,        /* v: a template parameter pack, one element at a time */
  K_TARGPACK,    /* v: a pack among template arguments, all elements */
  K_EXPANSION,   /* a...: a pack expansion */
  K_FWDREF,      /* a: template parameter i, resolved after the name */
  K_SPECIAL_SUB, /* i: std::allocator, std::string... */
  K_EXPANDED_SUB,
  K_CTORDTOR,  /* constructor (i=0) or destructor of class a */
  K_ABITAG,    /* a[abi:s] */
  K_LOCAL,     /* a::b, a being a function */
  K_ENCODING,  /* a b(v) i-quals j-ref c-attrs */
  K_DOTSUFFIX, /* a (s) */
  K_SPECIAL,   /* s a */
  K_CTORVTABLE,
  K_FUNC,    /* a (v) i-quals j-ref b-exception-spec */
  K_POINTER, /* a* */
  K_REF,     /* a& (i=0) or a&& (i=1) */
  K_PTRMEM,  /* b a::* */
  K_ARRAY,   /* a [b] */
  K_QUAL,    /* a const (i) */
  K_VENDORQUAL,
  K_VECTOR,
  K_PIXELVEC,
  K_BINFP,
  K_BITINT,
  K_POSTFIXQ,
  K_ELAB,
  K_TRANSFORMED,
  K_CLOSURE, /* 'lambda<s>'<w...>(v...) */
  K_UNNAMED,
  K_CONVOP,
  K_LITOP,
  K_INTLIT,
  K_ENUMLIT,
  K_BOOL,
  K_FLOATLIT,
  K_STRINGLIT,
  K_LAMBDAEXPR,
  K_BINARY,
  K_PREFIX,
  K_POSTFIX,
  K_SUBSCRIPT,
  K_MEMBER,
  K_NEW,
  K_DELETE,
  K_CALL,
  K_CONVEXPR,
  K_CONDITIONAL,
  K_CAST,
  K_ENCLOSING,
  K_NOEXCEPT,
  K_SIZEOFPACK,
  K_NODEARRAY,
  K_INITLIST,
  K_BRACED,
  K_BRACEDRANGE,
  K_FOLD,
  K_THROW,
  K_FUNCPARAM,
  K_GLOBALQ,
  K_DTORNAME,
  K_DYNEXC,
  K_TPARAMQARG,
  K_TYPEDECL,
  K_NONTYPEDECL,
  K_TTDECL,
  K_PACKDECL,
  K_CONSTRDECL,
  K_SYNTH,
  K_EXPLICITOBJ,
  K_ENABLEIF,
  K_FRIEND,
  K_STRUCTBIND,
};

/* operator precedence, tightest first (an operand binding less tightly
 * than its operator gets parentheses) */
enum prec {
  P_PRIMARY,
  P_POSTFIX,
  P_UNARY,
  P_CAST,
  P_PTRMEM,
  P_MUL,
  P_ADD,
  P_SHIFT,
  P_SPACESHIP,
  P_REL,
  P_EQ,
  P_AND,
  P_XOR,
  P_IOR,
  P_ANDIF,
  P_ORIF,
  P_COND,
  P_ASSIGN,
  P_COMMA,
  P_DEFAULT,
};

enum { NO, YES, UNKNOWN }; /* answers known when the node is made, or not */
enum { Q_CONST = 1, Q_VOLATILE = 2, Q_RESTRICT = 4 };
enum { REF_NONE, REF_LVALUE, REF_RVALUE };

typedef struct node node;
struct node {
  unsigned char kind, prec;
  unsigned char rhs, arr, fn; /* has a right half, is an array, a function */
  unsigned char busy;         /* being printed: breaks reference cycles */
  unsigned short depth;
  unsigned i, j;
  sv s, t;
  node *a, *b, *c;
  node **v, **w;
  size_t nv, nw;
};

typedef struct {
  node **v;
  size_t n, cap;
} nlist;

/* the template parameter scopes: levels[L] is the list T_ of level L
 * refers to (NULL for a level that only stands for "auto") */
typedef struct {
  nlist **v;
  size_t n, cap;
} levels;

typedef struct {
  const char *p, *end;
  arena A;
  nlist subs;  /* the substitution candidates, S_ first */
  levels tp;   /* template parameter scopes */
  nlist outer; /* the template arguments of the name being encoded */
  nlist fwd;   /* forward references of conversion operators */
  int permit_fwd, try_targs;
  size_t lambda_level; /* level of a lambda's parameters, or SIZE_MAX */
  unsigned synth[3];   /* invented template parameter names ($T, $N, $TT) */
  int depth;
} parser;

/* what the name of an encoding tells about the rest of it */
typedef struct {
  int ctor_dtor_conv, ends_with_targs, explicit_obj;
  unsigned cv, ref;
  size_t fwd_begin;
} name_state;

static int list_push(parser *P, nlist *l, node *x) {
  if (!x) return 0;
  if (l->n == l->cap) {
    size_t nc = l->cap ? l->cap * 2 : 8;
    node **nv = arena_alloc(&P->A, nc * sizeof *nv);
    if (!nv) return 0;
    if (l->n) memcpy(nv, l->v, l->n * sizeof *nv);
    l->v = nv;
    l->cap = nc;
  }
  l->v[l->n++] = x;
  return 1;
}

static int level_push(parser *P, nlist *l) {
  levels *t = &P->tp;
  if (t->n == t->cap) {
    size_t nc = t->cap ? t->cap * 2 : 8;
    nlist **nv = arena_alloc(&P->A, nc * sizeof *nv);
    if (!nv) return 0;
    if (t->n) memcpy(nv, t->v, t->n * sizeof *nv);
    t->v = nv;
    t->cap = nc;
  }
  t->v[t->n++] = l;
  return 1;
}

static unsigned child_depth(const node *c, unsigned d) {
  return c && c->depth > d ? c->depth : d;
}

/* Completes a node: its depth (bounded, as the printer recurses along it)
 * and what is known of its halves before printing. */
static node *finish(node *n) {
  unsigned d = 0;
  d = child_depth(n->a, d);
  d = child_depth(n->b, d);
  d = child_depth(n->c, d);
  for (size_t k = 0; k < n->nv; k++) d = child_depth(n->v[k], d);
  for (size_t k = 0; k < n->nw; k++) d = child_depth(n->w[k], d);
  if (d + 1 > MAX_DEPTH) return NULL;
  n->depth = (unsigned short)(d + 1);
  switch (n->kind) {
  case K_ARRAY:
    n->rhs = n->arr = YES;
    break;
  case K_FUNC:
  case K_ENCODING:
    n->rhs = n->fn = YES;
    break;
  case K_POINTER:
  case K_REF:
    n->rhs = n->a->rhs;
    break;
  case K_PTRMEM:
    n->rhs = n->b->rhs;
    break;
  case K_QUAL:
    n->rhs = n->a->rhs, n->arr = n->a->arr, n->fn = n->a->fn;
    break;
  case K_PACK:
    n->rhs = n->arr = n->fn = NO;
    for (size_t k = 0; k < n->nv; k++) {
      if (n->v[k]->rhs != NO) n->rhs = UNKNOWN;
      if (n->v[k]->arr != NO) n->arr = UNKNOWN;
      if (n->v[k]->fn != NO) n->fn = UNKNOWN;
    }
    break;
  case K_FWDREF:
    n->rhs = n->arr = n->fn = UNKNOWN;
    break;
  case K_TYPEDECL:
  case K_NONTYPEDECL:
  case K_TTDECL:
  case K_PACKDECL:
  case K_CONSTRDECL:
    n->rhs = YES;
    break;
  default:
    break;
  }
  return n;
}

static node *mk(parser *P, int kind, node *a, node *b) {
  node *n = arena_alloc(&P->A, sizeof *n);
  if (!n) return NULL;
  n->kind = (unsigned char)kind;
  n->a = a;
  n->b = b;
  return n;
}

/* a node of up to three children, or NULL when one of them is missing */
static node *mk3(parser *P, int kind, node *a, node *b, node *c, int nchild) {
  if ((nchild > 0 && !a) || (nchild > 1 && !b) || (nchild > 2 && !c)) return NULL;
  node *n = mk(P, kind, a, b);
  if (!n) return NULL;
  n->c = c;
  return finish(n);
}

static node *mk1(parser *P, int kind, node *a) {
  return mk3(P, kind, a, NULL, NULL, 1);
}

static node *mk2(parser *P, int kind, node *a, node *b) {
  return mk3(P, kind, a, b, NULL, 2);
}

static node *mk_list(parser *P, int kind, nlist *l) {
  node *n = mk(P, kind, NULL, NULL);
  if (!n) return NULL;
  n->v = l->v;
  n->nv = l->n;
  return finish(n);
}

static node *mk_text(parser *P, int kind, sv s) {
  node *n = mk(P, kind, NULL, NULL);
  if (!n) return NULL;
  n->s = s;
  return finish(n);
}

static sv cstr(const char *s) {
  sv r = {s, strlen(s)};
  return r;
}

static node *mk_name(parser *P, const char *s) {
  return mk_text(P, K_NAME, cstr(s));
}

/* ---- input ---------------------------------------------------------- */

static char look(const parser *P, size_t k) {
  return (size_t)(P->end - P->p) > k ? P->p[k] : 0;
}

static size_t left(const parser *P) {
  return (size_t)(P->end - P->p);
}

static int eat(parser *P, char c) {
  if (P->p < P->end && *P->p == c) {
    P->p++;
    return 1;
  }
  return 0;
}

static int eats(parser *P, const char *s) {
  size_t n = strlen(s);
  if (left(P) >= n && !memcmp(P->p, s, n)) {
    P->p += n;
    return 1;
  }
  return 0;
}

static int isdig(char c) {
  return c >= '0' && c <= '9';
}

/* <number> ::= [n] <digits>, kept as text; empty when absent (a leading
 * 'n' stays consumed, as in LLVM) */
static sv p_number(parser *P, int allow_neg) {
  const char *s = P->p;
  sv r = {s, 0};
  if (allow_neg) eat(P, 'n');
  if (!isdig(look(P, 0))) return r;
  while (isdig(look(P, 0))) P->p++;
  r.n = (size_t)(P->p - s);
  return r;
}

static int p_posint(parser *P, size_t *out) {
  if (!isdig(look(P, 0))) return 0;
  size_t v = 0;
  while (isdig(look(P, 0))) {
    if (v > 100000000) return 0;
    v = v * 10 + (size_t)(*P->p++ - '0');
  }
  *out = v;
  return 1;
}

/* <seq-id>: base 36 with digits and upper-case letters */
static int p_seqid(parser *P, size_t *out) {
  char c = look(P, 0);
  if (!isdig(c) && !(c >= 'A' && c <= 'Z')) return 0;
  size_t v = 0;
  for (;;) {
    c = look(P, 0);
    size_t d;
    if (isdig(c))
      d = (size_t)(c - '0');
    else if (c >= 'A' && c <= 'Z')
      d = (size_t)(c - 'A' + 10);
    else
      break;
    if (v > 100000000) return 0;
    v = v * 36 + d;
    P->p++;
  }
  *out = v;
  return 1;
}

/* <discriminator> ::= _ <digit> | __ <number> _ (ignored), or trailing
 * digits at the end of the name */
static void p_discriminator(parser *P) {
  if (look(P, 0) == '_') {
    if (isdig(look(P, 1))) {
      P->p += 2;
    } else if (look(P, 1) == '_') {
      size_t k = 2;
      while (isdig(look(P, k))) k++;
      if (look(P, k) == '_') P->p += k + 1;
    }
  } else if (isdig(look(P, 0))) {
    size_t k = 1;
    while (isdig(look(P, k))) k++;
    if (k == left(P)) P->p = P->end;
  }
}

static unsigned p_cv(parser *P) {
  unsigned q = 0;
  if (eat(P, 'r')) q |= Q_RESTRICT;
  if (eat(P, 'V')) q |= Q_VOLATILE;
  if (eat(P, 'K')) q |= Q_CONST;
  return q;
}

/* ---- template parameter scopes ------------------------------------- */

typedef struct {
  levels tp;
  nlist outer;
} tp_saved;

/* An encoding, and a local name's entity, see none of the template
 * parameters of the context around them. */
static void tp_save(parser *P, tp_saved *s) {
  s->tp = P->tp;
  s->outer = P->outer;
  memset(&P->tp, 0, sizeof P->tp);
  memset(&P->outer, 0, sizeof P->outer);
}

static void tp_restore(parser *P, const tp_saved *s) {
  P->tp = s->tp;
  P->outer = s->outer;
}

/* ---- operators ------------------------------------------------------ */

enum {
  OP_PREFIX,
  OP_POSTFIX,
  OP_BINARY,
  OP_ARRAY,
  OP_MEMBER,
  OP_NEW,
  OP_DEL,
  OP_CALL,
  OP_CCAST,
  OP_COND,
  OP_NAMEONLY,
  OP_NAMEDCAST, /* this one and those below have no operator name */
  OP_OFID,
};

typedef struct {
  char code[3];
  unsigned char kind, flag, prec;
  const char *name;
} opinfo;

static const opinfo ops[] = {
    {"aN", OP_BINARY, 0, P_ASSIGN, "operator&="},
    {"aS", OP_BINARY, 0, P_ASSIGN, "operator="},
    {"aa", OP_BINARY, 0, P_ANDIF, "operator&&"},
    {"ad", OP_PREFIX, 0, P_UNARY, "operator&"},
    {"an", OP_BINARY, 0, P_AND, "operator&"},
    {"at", OP_OFID, 1, P_UNARY, "alignof "},
    {"aw", OP_NAMEONLY, 0, P_PRIMARY, "operator co_await"},
    {"az", OP_OFID, 0, P_UNARY, "alignof "},
    {"cc", OP_NAMEDCAST, 0, P_POSTFIX, "const_cast"},
    {"cl", OP_CALL, 0, P_POSTFIX, "operator()"},
    {"cm", OP_BINARY, 0, P_COMMA, "operator,"},
    {"co", OP_PREFIX, 0, P_UNARY, "operator~"},
    {"cp", OP_CALL, 1, P_POSTFIX, "operator()"},
    {"cv", OP_CCAST, 0, P_CAST, "operator"},
    {"dV", OP_BINARY, 0, P_ASSIGN, "operator/="},
    {"da", OP_DEL, 1, P_UNARY, "operator delete[]"},
    {"dc", OP_NAMEDCAST, 0, P_POSTFIX, "dynamic_cast"},
    {"de", OP_PREFIX, 0, P_UNARY, "operator*"},
    {"dl", OP_DEL, 0, P_UNARY, "operator delete"},
    {"ds", OP_MEMBER, 0, P_PTRMEM, "operator.*"},
    {"dt", OP_MEMBER, 0, P_POSTFIX, "operator."},
    {"dv", OP_BINARY, 0, P_MUL, "operator/"},
    {"eO", OP_BINARY, 0, P_ASSIGN, "operator^="},
    {"eo", OP_BINARY, 0, P_XOR, "operator^"},
    {"eq", OP_BINARY, 0, P_EQ, "operator=="},
    {"ge", OP_BINARY, 0, P_REL, "operator>="},
    {"gt", OP_BINARY, 0, P_REL, "operator>"},
    {"ix", OP_ARRAY, 0, P_POSTFIX, "operator[]"},
    {"lS", OP_BINARY, 0, P_ASSIGN, "operator<<="},
    {"le", OP_BINARY, 0, P_REL, "operator<="},
    {"ls", OP_BINARY, 0, P_SHIFT, "operator<<"},
    {"lt", OP_BINARY, 0, P_REL, "operator<"},
    {"mI", OP_BINARY, 0, P_ASSIGN, "operator-="},
    {"mL", OP_BINARY, 0, P_ASSIGN, "operator*="},
    {"mi", OP_BINARY, 0, P_ADD, "operator-"},
    {"ml", OP_BINARY, 0, P_MUL, "operator*"},
    {"mm", OP_POSTFIX, 0, P_POSTFIX, "operator--"},
    {"na", OP_NEW, 1, P_UNARY, "operator new[]"},
    {"ne", OP_BINARY, 0, P_EQ, "operator!="},
    {"ng", OP_PREFIX, 0, P_UNARY, "operator-"},
    {"nt", OP_PREFIX, 0, P_UNARY, "operator!"},
    {"nw", OP_NEW, 0, P_UNARY, "operator new"},
    {"oR", OP_BINARY, 0, P_ASSIGN, "operator|="},
    {"oo", OP_BINARY, 0, P_ORIF, "operator||"},
    {"or", OP_BINARY, 0, P_IOR, "operator|"},
    {"pL", OP_BINARY, 0, P_ASSIGN, "operator+="},
    {"pl", OP_BINARY, 0, P_ADD, "operator+"},
    {"pm", OP_MEMBER, 1, P_PTRMEM, "operator->*"},
    {"pp", OP_POSTFIX, 0, P_POSTFIX, "operator++"},
    {"ps", OP_PREFIX, 0, P_UNARY, "operator+"},
    {"pt", OP_MEMBER, 1, P_POSTFIX, "operator->"},
    {"qu", OP_COND, 0, P_COND, "operator?"},
    {"rM", OP_BINARY, 0, P_ASSIGN, "operator%="},
    {"rS", OP_BINARY, 0, P_ASSIGN, "operator>>="},
    {"rc", OP_NAMEDCAST, 0, P_POSTFIX, "reinterpret_cast"},
    {"rm", OP_BINARY, 0, P_MUL, "operator%"},
    {"rs", OP_BINARY, 0, P_SHIFT, "operator>>"},
    {"sc", OP_NAMEDCAST, 0, P_POSTFIX, "static_cast"},
    {"ss", OP_BINARY, 0, P_SPACESHIP, "operator<=>"},
    {"st", OP_OFID, 1, P_UNARY, "sizeof "},
    {"sz", OP_OFID, 0, P_UNARY, "sizeof "},
    {"te", OP_OFID, 0, P_POSTFIX, "typeid "},
    {"ti", OP_OFID, 1, P_POSTFIX, "typeid "},
};

static const opinfo *p_op_encoding(parser *P) {
  if (left(P) < 2) return NULL;
  for (size_t k = 0; k < sizeof ops / sizeof ops[0]; k++)
    if (ops[k].code[0] == P->p[0] && ops[k].code[1] == P->p[1]) {
      P->p += 2;
      return &ops[k];
    }
  return NULL;
}

/* the operator as written in an expression: "operator+" -> "+" */
static sv op_symbol(const opinfo *op) {
  sv s = cstr(op->name);
  if (op->kind < OP_NAMEDCAST) {
    s.p += 8, s.n -= 8;
    if (s.n && s.p[0] == ' ') s.p++, s.n--;
  }
  return s;
}

/* ---- parser --------------------------------------------------------- */

static node *p_encoding(parser *P);
static node *p_name(parser *P, name_state *st);
static node *p_type(parser *P);
static node *p_expr(parser *P);
static node *p_targs(parser *P, int tag);
static node *p_targ(parser *P);
static node *p_tparam_decl(parser *P, nlist *params);
static node *p_unqualified(parser *P, name_state *st, node *scope);

/* Every recursive rule goes through GUARD, which bounds the nesting. */
#define GUARD(call)                                                                                \
  do {                                                                                             \
    if (++P->depth > MAX_DEPTH) {                                                                  \
      P->depth--;                                                                                  \
      return NULL;                                                                                 \
    }                                                                                              \
    node *r_ = (call);                                                                             \
    P->depth--;                                                                                    \
    return r_;                                                                                     \
  } while (0)

static sv p_bare_source_name(parser *P) {
  sv r = {P->p, 0};
  size_t n;
  if (!p_posint(P, &n) || n == 0 || left(P) < n) return r;
  r.p = P->p;
  r.n = n;
  P->p += n;
  return r;
}

static node *p_source_name(parser *P) {
  sv s = p_bare_source_name(P);
  if (!s.n) return NULL;
  if (s.n >= 10 && !memcmp(s.p, "_GLOBAL__N", 10)) return mk_name(P, "(anonymous namespace)");
  return mk_text(P, K_NAME, s);
}

static node *p_abi_tags(parser *P, node *n) {
  while (n && eat(P, 'B')) {
    sv tag = p_bare_source_name(P);
    if (!tag.n) return NULL;
    node *t = mk(P, K_ABITAG, n, NULL);
    if (!t) return NULL;
    t->s = tag;
    n = finish(t);
  }
  return n;
}

/* <substitution> ::= S_ | S <seq-id> _ | Sa | Sb | Ss | Si | So | Sd */
static node *p_subst(parser *P) {
  if (!eat(P, 'S')) return NULL;
  char c = look(P, 0);
  if (c >= 'a' && c <= 'z') {
    static const char kinds[] = "absiod";
    const char *k = strchr(kinds, c);
    if (!k) return NULL;
    P->p++;
    node *n = mk(P, K_SPECIAL_SUB, NULL, NULL);
    if (!n) return NULL;
    n->i = (unsigned)(k - kinds);
    n = finish(n);
    node *tagged = p_abi_tags(P, n);
    if (tagged != n && !list_push(P, &P->subs, tagged)) return NULL;
    return tagged;
  }
  if (eat(P, '_')) return P->subs.n ? P->subs.v[0] : NULL;
  size_t idx;
  if (!p_seqid(P, &idx)) return NULL;
  idx++;
  if (!eat(P, '_') || idx >= P->subs.n) return NULL;
  return P->subs.v[idx];
}

/* <template-param> ::= T_ | T <n> _ | TL <level> __ | TL <level> _ <n> _ */
static node *p_tparam(parser *P) {
  if (!eat(P, 'T')) return NULL;
  size_t level = 0, idx = 0;
  if (eat(P, 'L')) {
    if (!p_posint(P, &level)) return NULL;
    level++;
    if (!eat(P, '_')) return NULL;
  }
  if (!eat(P, '_')) {
    if (!p_posint(P, &idx)) return NULL;
    idx++;
    if (!eat(P, '_')) return NULL;
  }
  if (P->permit_fwd && level == 0) {
    node *f = mk(P, K_FWDREF, NULL, NULL);
    if (!f) return NULL;
    f->i = (unsigned)idx;
    f = finish(f);
    return list_push(P, &P->fwd, f) ? f : NULL;
  }
  if (level >= P->tp.n || !P->tp.v[level] || idx >= P->tp.v[level]->n) {
    /* a generic lambda's "auto" parameter is mangled as its template
     * parameter */
    if (P->lambda_level == level && level <= P->tp.n) {
      if (level == P->tp.n && !level_push(P, NULL)) return NULL;
      return mk_name(P, "auto");
    }
    return NULL;
  }
  return P->tp.v[level]->v[idx];
}

/* conversion operators may name template parameters of the arguments
 * that follow them: resolve those now that the arguments are known */
static int resolve_fwd(parser *P, name_state *st) {
  for (size_t k = st->fwd_begin; k < P->fwd.n; k++) {
    node *f = P->fwd.v[k];
    if (!P->tp.n || !P->tp.v[0] || f->i >= P->tp.v[0]->n) return 0;
    f->a = P->tp.v[0]->v[f->i];
  }
  P->fwd.n = st->fwd_begin;
  return 1;
}

static node *p_targs_(parser *P, int tag) {
  if (!eat(P, 'I')) return NULL;
  if (tag) { /* T_ refers to the innermost template arguments */
    P->tp.n = 0;
    if (!level_push(P, &P->outer)) return NULL;
    P->outer.n = 0;
  }
  nlist args = {0};
  while (!eat(P, 'E')) {
    node *arg = p_targ(P);
    if (!list_push(P, &args, arg)) return NULL;
    if (tag) {
      node *e = arg->kind == K_TPARAMQARG ? arg->b : arg;
      if (arg->kind == K_TARGPACK) {
        nlist l = {arg->v, arg->nv, arg->nv};
        e = mk_list(P, K_PACK, &l);
      }
      if (!list_push(P, &P->outer, e)) return NULL;
    }
    if (look(P, 0) == 'Q') return NULL; /* requires-clause: not supported */
  }
  return mk_list(P, K_TARGS, &args);
}

static node *p_targs(parser *P, int tag) {
  GUARD(p_targs_(P, tag));
}

static node *p_expr_primary(parser *P);
static node *p_decltype(parser *P);

static node *p_targ_(parser *P) {
  switch (look(P, 0)) {
  case 'X': {
    P->p++;
    node *e = p_expr(P);
    return e && eat(P, 'E') ? e : NULL;
  }
  case 'J': {
    P->p++;
    nlist l = {0};
    while (!eat(P, 'E'))
      if (!list_push(P, &l, p_targ(P))) return NULL;
    return mk_list(P, K_TARGPACK, &l);
  }
  case 'L':
    if (look(P, 1) == 'Z') {
      P->p += 2;
      node *e = p_encoding(P);
      return e && eat(P, 'E') ? e : NULL;
    }
    return p_expr_primary(P);
  case 'T': {
    char c = look(P, 1);
    if (!c || !strchr("yptnk", c)) return p_type(P);
    node *decl = p_tparam_decl(P, NULL);
    if (!decl) return NULL;
    return mk2(P, K_TPARAMQARG, decl, p_targ(P));
  }
  default:
    return p_type(P);
  }
}

static node *p_targ(parser *P) {
  GUARD(p_targ_(P));
}

static int is_tparam_decl(parser *P) {
  char c = look(P, 1);
  return look(P, 0) == 'T' && c && strchr("yptnk", c);
}

static node *invent_tparam(parser *P, nlist *params, unsigned kind) {
  node *n = mk(P, K_SYNTH, NULL, NULL);
  if (!n) return NULL;
  n->i = kind;
  n->j = P->synth[kind]++;
  n = finish(n);
  if (n && params && !list_push(P, params, n)) return NULL;
  return n;
}

/* <template-param-decl> ::= Ty | Tk <name> | Tn <type> | Tt <decl>* E | Tp <decl> */
static node *p_tparam_decl_(parser *P, nlist *params) {
  if (eats(P, "Ty")) return mk1(P, K_TYPEDECL, invent_tparam(P, params, 0));
  if (eats(P, "Tk")) {
    node *c = p_name(P, NULL);
    if (!c) return NULL;
    return mk2(P, K_CONSTRDECL, c, invent_tparam(P, params, 0));
  }
  if (eats(P, "Tn")) {
    node *nm = invent_tparam(P, params, 1);
    if (!nm) return NULL;
    return mk2(P, K_NONTYPEDECL, nm, p_type(P));
  }
  if (eats(P, "Tt")) {
    node *nm = invent_tparam(P, params, 2);
    nlist *inner_scope = arena_alloc(&P->A, sizeof *inner_scope);
    size_t old = P->tp.n;
    if (!nm || !inner_scope || !level_push(P, inner_scope)) return NULL;
    nlist inner = {0};
    node *r = NULL;
    while (!eat(P, 'E')) {
      if (!list_push(P, &inner, p_tparam_decl(P, inner_scope)) || look(P, 0) == 'Q') goto out;
    }
    r = mk_list(P, K_TTDECL, &inner);
    if (r) r->a = nm, r = finish(r);
  out:
    if (P->tp.n > old) P->tp.n = old;
    return r;
  }
  if (eats(P, "Tp")) return mk1(P, K_PACKDECL, p_tparam_decl(P, params));
  return NULL;
}

static node *p_tparam_decl(parser *P, nlist *params) {
  GUARD(p_tparam_decl_(P, params));
}

/* <unnamed-type-name> ::= Ut [<number>] _ | Ul <lambda-sig> E [<number>] _ */
static node *p_closure(parser *P) {
  size_t saved_level = P->lambda_level, old = P->tp.n;
  nlist *scope = arena_alloc(&P->A, sizeof *scope);
  node *r = NULL;
  P->lambda_level = P->tp.n;
  if (!scope || !level_push(P, scope)) goto out;
  nlist tparams = {0}, params = {0};
  while (is_tparam_decl(P))
    if (!list_push(P, &tparams, p_tparam_decl(P, scope))) goto out;
  if (!tparams.n) P->tp.n--;
  if (look(P, 0) == 'Q') goto out; /* requires-clause: not supported */
  if (!eat(P, 'v')) {
    do {
      if (!list_push(P, &params, p_type(P))) goto out;
    } while (look(P, 0) != 'E' && look(P, 0) != 'Q');
  }
  if (!eat(P, 'E')) goto out;
  sv count = p_number(P, 0);
  if (!eat(P, '_')) goto out;
  r = mk_list(P, K_CLOSURE, &params);
  if (r) {
    r->w = tparams.v, r->nw = tparams.n, r->s = count;
    r = finish(r);
  }
out:
  P->lambda_level = saved_level;
  if (P->tp.n > old) P->tp.n = old;
  return r;
}

static node *p_unnamed(parser *P, name_state *st) {
  if (st) P->tp.n = 0;
  if (eats(P, "Ut")) {
    sv count = p_number(P, 0);
    return eat(P, '_') ? mk_text(P, K_UNNAMED, count) : NULL;
  }
  if (eats(P, "Ul")) return p_closure(P);
  if (eats(P, "Ub")) {
    p_number(P, 0);
    return eat(P, '_') ? mk_name(P, "'block-literal'") : NULL;
  }
  return NULL;
}

/* <ctor-dtor-name> ::= C[I]<1-5> [<name>] | D<0-5>; *scope becomes the
 * spelled-out std::basic_string<...> when it was Ss etc. */
static node *p_ctor_dtor(parser *P, node **scope, name_state *st) {
  if ((*scope)->kind == K_SPECIAL_SUB) {
    node *e = mk(P, K_EXPANDED_SUB, NULL, NULL);
    if (!e) return NULL;
    e->i = (*scope)->i;
    *scope = finish(e);
  }
  node *n = NULL;
  if (eat(P, 'C')) {
    int inherited = eat(P, 'I');
    char c = look(P, 0);
    if (c < '1' || c > '5') return NULL;
    P->p++;
    if (st) st->ctor_dtor_conv = 1;
    if (inherited && !p_name(P, st)) return NULL;
    n = mk1(P, K_CTORDTOR, *scope);
  } else if (look(P, 0) == 'D' && look(P, 1) && strchr("01245", look(P, 1))) {
    P->p += 2;
    if (st) st->ctor_dtor_conv = 1;
    n = mk1(P, K_CTORDTOR, *scope);
    if (n) n->i = 1;
  }
  return n;
}

static node *p_operator_name(parser *P, name_state *st) {
  const opinfo *op = p_op_encoding(P);
  if (op) {
    if (op->kind == OP_CCAST) { /* cv <type>: conversion operator */
      int save_t = P->try_targs, save_p = P->permit_fwd;
      P->try_targs = 0;
      P->permit_fwd = save_p || st;
      node *ty = p_type(P);
      P->try_targs = save_t;
      P->permit_fwd = save_p;
      if (ty && st) st->ctor_dtor_conv = 1;
      return mk1(P, K_CONVOP, ty);
    }
    if (op->kind >= OP_NAMEDCAST || (op->kind == OP_MEMBER && !op->flag)) return NULL;
    return mk_name(P, op->name);
  }
  if (eats(P, "li")) return mk1(P, K_LITOP, p_source_name(P));
  if (eat(P, 'v') && isdig(look(P, 0))) { /* vendor extended operator */
    P->p++;
    return mk1(P, K_CONVOP, p_source_name(P));
  }
  return NULL;
}

/* <unqualified-name> ::= [F] [L] (<source-name> | <unnamed-type-name> |
 *     DC <source-name>+ E | <ctor-dtor-name> | <operator-name>) <abi-tags> */
static node *p_unqualified(parser *P, name_state *st, node *scope) {
  if (look(P, 0) == 'W') return NULL; /* module names: not supported */
  int friend = scope && eat(P, 'F');
  eat(P, 'L');
  char c = look(P, 0);
  node *r;
  if (c >= '1' && c <= '9') {
    r = p_source_name(P);
  } else if (c == 'U') {
    r = p_unnamed(P, st);
  } else if (eats(P, "DC")) {
    nlist b = {0};
    do {
      if (!list_push(P, &b, p_source_name(P))) return NULL;
    } while (!eat(P, 'E'));
    r = mk_list(P, K_STRUCTBIND, &b);
  } else if (c == 'C' || c == 'D') {
    if (!scope) return NULL;
    r = p_ctor_dtor(P, &scope, st);
  } else {
    r = p_operator_name(P, st);
  }
  r = r ? p_abi_tags(P, r) : NULL;
  if (!r) return NULL;
  if (friend) return mk2(P, K_FRIEND, scope, r);
  if (scope) return mk2(P, K_NESTED, scope, r);
  return r;
}

/* <unscoped-name> ::= [St] <unqualified-name> | <substitution> */
static node *p_unscoped(parser *P, name_state *st, int *is_subst) {
  node *std = NULL;
  if (eats(P, "St") && !(std = mk_name(P, "std"))) return NULL;
  if (look(P, 0) == 'S') {
    if (std) return NULL;
    *is_subst = 1;
    return p_subst(P);
  }
  return p_unqualified(P, st, std);
}

/* <nested-name> ::= N [<CV-qualifiers>] [<ref-qualifier>] <prefix> E */
static node *p_nested(parser *P, name_state *st) {
  if (!eat(P, 'N')) return NULL;
  if (!eat(P, 'H')) {
    unsigned cv = p_cv(P);
    unsigned ref = eat(P, 'O') ? REF_RVALUE : eat(P, 'R') ? REF_LVALUE : REF_NONE;
    if (st) st->cv = cv, st->ref = ref;
  } else if (st) {
    st->explicit_obj = 1;
  }
  node *so = NULL;
  while (!eat(P, 'E')) {
    if (st) st->ends_with_targs = 0;
    char c = look(P, 0), d = look(P, 1);
    if (c == 'T') {
      if (so) return NULL;
      so = p_tparam(P);
    } else if (c == 'I') {
      if (!so) return NULL;
      node *ta = p_targs(P, st != NULL);
      if (!ta || so->kind == K_TNAME) return NULL;
      if (st) st->ends_with_targs = 1;
      so = mk2(P, K_TNAME, so, ta);
    } else if (c == 'D' && (d == 't' || d == 'T')) {
      if (so) return NULL;
      so = p_decltype(P);
    } else if (c == 'S') {
      node *s;
      if (d == 't') {
        P->p += 2;
        s = mk_name(P, "std");
      } else {
        s = p_subst(P);
      }
      if (!s || so) return NULL;
      so = s;
      continue; /* not a new substitution candidate */
    } else {
      so = p_unqualified(P, st, so);
    }
    if (!list_push(P, &P->subs, so)) return NULL;
    eat(P, 'M');
  }
  if (!so || !P->subs.n) return NULL;
  P->subs.n--; /* the whole name is not a candidate: the type around it is */
  return so;
}

/* <local-name> ::= Z <encoding> E (s | [d [<number>] _] <name>) [<discriminator>] */
static node *p_local(parser *P, name_state *st) {
  if (!eat(P, 'Z')) return NULL;
  node *enc = p_encoding(P);
  if (!enc || !eat(P, 'E')) return NULL;
  if (eat(P, 's')) {
    p_discriminator(P);
    return mk2(P, K_LOCAL, enc, mk_name(P, "string literal"));
  }
  tp_saved saved;
  tp_save(P, &saved);
  node *entity = NULL;
  if (eat(P, 'd')) {
    p_number(P, 1);
    if (eat(P, '_')) entity = p_name(P, st);
  } else {
    entity = p_name(P, st);
    if (entity) p_discriminator(P);
  }
  tp_restore(P, &saved);
  return mk2(P, K_LOCAL, enc, entity);
}

static node *p_name_(parser *P, name_state *st) {
  char c = look(P, 0);
  if (c == 'N') return p_nested(P, st);
  if (c == 'Z') return p_local(P, st);
  int is_subst = 0;
  node *r = p_unscoped(P, st, &is_subst);
  if (!r) return NULL;
  if (look(P, 0) == 'I') { /* <unscoped-template-name> <template-args> */
    if (!is_subst && !list_push(P, &P->subs, r)) return NULL;
    node *ta = p_targs(P, st != NULL);
    if (!ta) return NULL;
    if (st) st->ends_with_targs = 1;
    return mk2(P, K_TNAME, r, ta);
  }
  return is_subst ? NULL : r;
}

static node *p_name(parser *P, name_state *st) {
  GUARD(p_name_(P, st));
}

/* ---- types ---------------------------------------------------------- */

static node *p_qualified_(parser *P);

static node *p_qualified(parser *P) {
  GUARD(p_qualified_(P));
}

/* <qualified-type> ::= (U <source-name> [<template-args>])* <CV-qualifiers> <type> */
static node *p_qualified_(parser *P) {
  if (eat(P, 'U')) {
    sv q = p_bare_source_name(P);
    if (!q.n || (q.n >= 9 && !memcmp(q.p, "objcproto", 9))) return NULL;
    node *ta = NULL;
    if (look(P, 0) == 'I' && !(ta = p_targs(P, 0))) return NULL;
    node *child = p_qualified(P);
    if (!child) return NULL;
    node *n = mk(P, K_VENDORQUAL, child, ta);
    if (!n) return NULL;
    n->s = q;
    return finish(n);
  }
  unsigned q = p_cv(P);
  node *t = p_type(P);
  if (!t || !q) return t;
  node *n = mk(P, K_QUAL, t, NULL);
  if (!n) return NULL;
  n->i = q;
  return finish(n);
}

/* <function-type> ::= [<CV-qualifiers>] [<exception-spec>] [Dx] F [Y] <type>+ [<ref>] E */
static node *p_function_type(parser *P) {
  unsigned cv = p_cv(P);
  node *exc = NULL;
  if (eats(P, "Do")) {
    if (!(exc = mk_name(P, "noexcept"))) return NULL;
  } else if (eats(P, "DO")) {
    node *e = p_expr(P);
    if (!e || !eat(P, 'E') || !(exc = mk1(P, K_NOEXCEPT, e))) return NULL;
  } else if (eats(P, "Dw")) {
    nlist l = {0};
    while (!eat(P, 'E'))
      if (!list_push(P, &l, p_type(P))) return NULL;
    if (!(exc = mk_list(P, K_DYNEXC, &l))) return NULL;
  }
  eats(P, "Dx");
  if (!eat(P, 'F')) return NULL;
  eat(P, 'Y');
  node *ret = p_type(P);
  if (!ret) return NULL;
  unsigned ref = REF_NONE;
  nlist params = {0};
  for (;;) {
    if (eat(P, 'E')) break;
    if (eat(P, 'v')) continue;
    if (eats(P, "RE")) {
      ref = REF_LVALUE;
      break;
    }
    if (eats(P, "OE")) {
      ref = REF_RVALUE;
      break;
    }
    if (!list_push(P, &params, p_type(P))) return NULL;
  }
  node *n = mk(P, K_FUNC, ret, exc);
  if (!n) return NULL;
  n->v = params.v, n->nv = params.n, n->i = cv, n->j = ref;
  return finish(n);
}

/* <array-type> ::= A [<number> | <expression>] _ <type> */
static node *p_array_type(parser *P) {
  if (!eat(P, 'A')) return NULL;
  node *dim = NULL;
  if (isdig(look(P, 0))) {
    dim = mk_text(P, K_NAME, p_number(P, 0));
    if (!dim || !eat(P, '_')) return NULL;
  } else if (!eat(P, '_')) {
    dim = p_expr(P);
    if (!dim || !eat(P, '_')) return NULL;
  }
  node *t = p_type(P);
  if (!t) return NULL;
  node *n = mk(P, K_ARRAY, t, dim);
  return n ? finish(n) : NULL;
}

/* <vector-type> ::= Dv <number> _ (<type> | p) | Dv [<expression>] _ <type> */
static node *p_vector_type(parser *P) {
  if (!eats(P, "Dv")) return NULL;
  node *dim = NULL;
  char c = look(P, 0);
  if (c >= '1' && c <= '9') {
    dim = mk_text(P, K_NAME, p_number(P, 0));
    if (!dim || !eat(P, '_')) return NULL;
    if (eat(P, 'p')) {
      node *n = mk(P, K_PIXELVEC, NULL, dim);
      return n ? finish(n) : NULL;
    }
  } else if (!eat(P, '_')) {
    dim = p_expr(P);
    if (!dim || !eat(P, '_')) return NULL;
  }
  node *t = p_type(P);
  if (!t) return NULL;
  node *n = mk(P, K_VECTOR, t, dim);
  return n ? finish(n) : NULL;
}

/* <decltype> ::= Dt <expression> E | DT <expression> E */
static node *p_decltype(parser *P) {
  if (!eat(P, 'D') || !(eat(P, 't') || eat(P, 'T'))) return NULL;
  node *e = p_expr(P);
  if (!e || !eat(P, 'E')) return NULL;
  node *n = mk1(P, K_ENCLOSING, e);
  if (n) n->s = cstr("decltype");
  return n;
}

/* <class-enum-type> ::= [Ts | Tu | Te] <name> */
static node *p_class_enum(parser *P) {
  const char *el = NULL;
  if (eats(P, "Ts"))
    el = "struct";
  else if (eats(P, "Tu"))
    el = "union";
  else if (eats(P, "Te"))
    el = "enum";
  node *n = p_name(P, NULL);
  if (!n || !el) return n;
  node *e = mk1(P, K_ELAB, n);
  if (e) e->s = cstr(el);
  return e;
}

static const char *const builtin_names[128] = {
    ['v'] = "void",        ['w'] = "wchar_t",
    ['b'] = "bool",        ['c'] = "char",
    ['a'] = "signed char", ['h'] = "unsigned char",
    ['s'] = "short",       ['t'] = "unsigned short",
    ['i'] = "int",         ['j'] = "unsigned int",
    ['l'] = "long",        ['m'] = "unsigned long",
    ['x'] = "long long",   ['y'] = "unsigned long long",
    ['n'] = "__int128",    ['o'] = "unsigned __int128",
    ['f'] = "float",       ['d'] = "double",
    ['e'] = "long double", ['g'] = "__float128",
    ['z'] = "...",
};

static const char *const builtin_d_names[128] = {
    ['d'] = "decimal64",      ['e'] = "decimal128",     ['f'] = "decimal32", ['h'] = "half",
    ['i'] = "char32_t",       ['s'] = "char16_t",       ['u'] = "char8_t",   ['a'] = "auto",
    ['c'] = "decltype(auto)", ['n'] = "std::nullptr_t",
};

/* The D types that are builtin: D<x> names, DF<n>_ / DF16b floating
 * point, DB / DU _BitInt. */
static node *p_builtin_d(parser *P) {
  char c = look(P, 1);
  if (c > 0 && builtin_d_names[(int)c]) {
    P->p += 2;
    return mk_name(P, builtin_d_names[(int)c]);
  }
  if (c == 'F') {
    P->p += 2;
    if (eats(P, "16b")) return mk_name(P, "std::bfloat16_t");
    node *bits = mk_text(P, K_NAME, p_number(P, 0));
    if (!bits || !eat(P, '_')) return NULL;
    node *n = mk(P, K_BINFP, NULL, bits);
    return n ? finish(n) : NULL;
  }
  /* c is 'B' or 'U' */
  P->p += 2;
  node *size = isdig(look(P, 0)) ? mk_text(P, K_NAME, p_number(P, 0)) : p_expr(P);
  if (!size || !eat(P, '_')) return NULL;
  node *n = mk(P, K_BITINT, NULL, size);
  if (!n) return NULL;
  n->i = c == 'B';
  return finish(n);
}

/* The D types that are substitution candidates, or NULL. */
static node *p_type_d(parser *P) {
  switch (look(P, 1)) {
  case 't':
  case 'T':
    return p_decltype(P);
  case 'v':
    return p_vector_type(P);
  case 'p': {
    P->p += 2;
    return mk1(P, K_EXPANSION, p_type(P));
  }
  case 'o':
  case 'O':
  case 'w':
  case 'x':
    return p_function_type(P);
  default:
    return NULL;
  }
}

static node *p_postfix_type(parser *P, const char *text) {
  P->p++;
  node *n = mk1(P, K_POSTFIXQ, p_type(P));
  if (n) n->s = cstr(text);
  return n;
}

static node *p_ref_type(parser *P, unsigned rvalue) {
  P->p++;
  node *n = mk1(P, K_REF, p_type(P));
  if (n) n->i = rvalue;
  return n;
}

/* u <source-name> [I <type> E]: a vendor extended type */
static node *p_vendor_type(parser *P) {
  P->p++;
  sv nm = p_bare_source_name(P);
  if (!nm.n) return NULL;
  if (!eat(P, 'I')) return mk_text(P, K_NAME, nm);
  node *base = p_type(P);
  if (!base || !eat(P, 'E')) return NULL;
  node *n = mk1(P, K_TRANSFORMED, base);
  if (n) n->s = nm;
  return n;
}

/* The types that are no substitution candidates come back directly;
 * *candidate tells whether the result is one. */
static node *p_type_body(parser *P, int *candidate) {
  char c = look(P, 0);
  *candidate = 1;
  if (c > 0 && builtin_names[(int)c]) {
    *candidate = 0;
    P->p++;
    return mk_name(P, builtin_names[(int)c]);
  }
  switch (c) {
  case 'r':
  case 'V':
  case 'K': {
    size_t k = 0;
    if (look(P, k) == 'r') k++;
    if (look(P, k) == 'V') k++;
    if (look(P, k) == 'K') k++;
    char d = look(P, k), e = look(P, k + 1);
    if (d == 'F' || (d == 'D' && e && strchr("oOwx", e))) return p_function_type(P);
    return p_qualified(P);
  }
  case 'U':
    return p_qualified(P);
  case 'u':
    return p_vendor_type(P);
  case 'D': {
    char d = look(P, 1);
    if ((d > 0 && builtin_d_names[(int)d]) || d == 'F' || d == 'B' || d == 'U') {
      *candidate = d == 'B' || d == 'U'; /* LLVM counts _BitInt among the candidates */
      return p_builtin_d(P);
    }
    return p_type_d(P);
  }
  case 'F':
    return p_function_type(P);
  case 'A':
    return p_array_type(P);
  case 'M': {
    P->p++;
    node *cls = p_type(P);
    if (!cls) return NULL;
    node *mem = p_type(P);
    return mem ? mk2(P, K_PTRMEM, cls, mem) : NULL;
  }
  case 'T': {
    char d = look(P, 1);
    if (d == 's' || d == 'u' || d == 'e') return p_class_enum(P);
    node *r = p_tparam(P);
    if (!r || !P->try_targs || look(P, 0) != 'I') return r;
    /* <template-template-param> <template-args> */
    if (!list_push(P, &P->subs, r)) return NULL;
    return mk2(P, K_TNAME, r, p_targs(P, 0));
  }
  case 'P':
    P->p++;
    return mk1(P, K_POINTER, p_type(P));
  case 'R':
    return p_ref_type(P, 0);
  case 'O':
    return p_ref_type(P, 1);
  case 'C':
    return p_postfix_type(P, " complex");
  case 'G':
    return p_postfix_type(P, " imaginary");
  case 'S':
    if (look(P, 1) != 't') {
      node *r = p_subst(P);
      if (r && look(P, 0) == 'I' && P->try_targs) return mk2(P, K_TNAME, r, p_targs(P, 0));
      *candidate = 0;
      return r;
    }
    return p_class_enum(P);
  default:
    return p_class_enum(P);
  }
}

static node *p_type_(parser *P) {
  int candidate;
  node *r = p_type_body(P, &candidate);
  if (r && candidate && !list_push(P, &P->subs, r)) return NULL;
  return r;
}

static node *p_type(parser *P) {
  GUARD(p_type_(P));
}

/* ---- expressions ---------------------------------------------------- */

static node *mk_intlit(parser *P, const char *type) {
  sv v = p_number(P, 1);
  if (!v.n || !eat(P, 'E')) return NULL;
  node *n = mk_text(P, K_INTLIT, cstr(type));
  if (n) n->t = v;
  return n;
}

/* L <float bits in hex> E; kind 0 float, 1 double, 2 long double */
static node *mk_floatlit(parser *P, unsigned kind) {
  static const size_t digits[] = {8, 16, 20};
  size_t n = digits[kind];
  if (left(P) <= n) return NULL;
  for (size_t k = 0; k < n; k++) {
    char c = P->p[k];
    if (!isdig(c) && !(c >= 'a' && c <= 'f')) return NULL; /* lower-case hex only */
  }
  sv hex = {P->p, n};
  P->p += n;
  if (!eat(P, 'E')) return NULL;
  node *r = mk_text(P, K_FLOATLIT, hex);
  if (r) r->i = kind;
  return r;
}

static const char *const literal_types[128] = {
    ['w'] = "wchar_t",
    ['c'] = "char",
    ['a'] = "signed char",
    ['h'] = "unsigned char",
    ['s'] = "short",
    ['t'] = "unsigned short",
    ['i'] = "",
    ['j'] = "u",
    ['l'] = "l",
    ['m'] = "ul",
    ['x'] = "ll",
    ['y'] = "ull",
    ['n'] = "__int128",
    ['o'] = "unsigned __int128",
};

/* <expr-primary> ::= L <type> <value> E | L <mangled-name> E | LDnE ... */
static node *p_expr_primary(parser *P) {
  if (!eat(P, 'L')) return NULL;
  char c = look(P, 0);
  if (c > 0 && literal_types[(int)c]) {
    P->p++;
    return mk_intlit(P, literal_types[(int)c]);
  }
  switch (c) {
  case 'b':
    if (eats(P, "b0E") || eats(P, "b1E")) {
      node *n = mk(P, K_BOOL, NULL, NULL);
      if (n) n->i = P->p[-2] == '1';
      return n ? finish(n) : NULL;
    }
    return NULL;
  case 'f':
  case 'd':
  case 'e':
    P->p++;
    return mk_floatlit(P, c == 'f' ? 0 : c == 'd' ? 1 : 2);
  case '_':
    if (eats(P, "_Z")) {
      node *r = p_encoding(P);
      if (r && eat(P, 'E')) return r;
    }
    return NULL;
  case 'A': {
    node *t = p_type(P);
    return t && eat(P, 'E') ? mk1(P, K_STRINGLIT, t) : NULL;
  }
  case 'D':
    if (eats(P, "Dn") && (eat(P, '0'), eat(P, 'E'))) return mk_name(P, "nullptr");
    return NULL;
  case 'T':
    return NULL;
  case 'U': {
    if (look(P, 1) != 'l') return NULL;
    node *t = p_unnamed(P, NULL);
    return t && eat(P, 'E') ? mk1(P, K_LAMBDAEXPR, t) : NULL;
  }
  default: {
    node *t = p_type(P);
    if (!t) return NULL;
    sv v = p_number(P, 1);
    if (!v.n || !eat(P, 'E')) return NULL;
    node *n = mk1(P, K_ENUMLIT, t);
    if (n) n->t = v;
    return n;
  }
  }
}

/* <function-param> ::= fpT | fp <CV> [<number>] _ | fL <number> p <CV> [<number>] _ */
static node *p_function_param(parser *P) {
  if (eats(P, "fpT")) return mk_name(P, "this");
  if (eats(P, "fp")) {
    p_cv(P);
  } else if (eats(P, "fL")) {
    if (!p_number(P, 0).n || !eat(P, 'p')) return NULL;
    p_cv(P);
  } else {
    return NULL;
  }
  sv num = p_number(P, 0);
  return eat(P, '_') ? mk_text(P, K_FUNCPARAM, num) : NULL;
}

/* <fold-expr> ::= fL <op> <expr> <expr> | fR ... | fl <op> <expr> | fr ... */
static node *p_fold(parser *P) {
  if (!eat(P, 'f')) return NULL;
  char c = look(P, 0);
  if (c != 'L' && c != 'R' && c != 'l' && c != 'r') return NULL;
  int is_left = c == 'L' || c == 'l', has_init = c == 'L' || c == 'R';
  P->p++;
  const opinfo *op = p_op_encoding(P);
  if (!op) return NULL;
  size_t nl = strlen(op->name);
  if (!(op->kind == OP_BINARY || (op->kind == OP_MEMBER && op->name[nl - 1] == '*'))) return NULL;
  node *pack = p_expr(P), *init = NULL;
  if (!pack) return NULL;
  if (has_init && !(init = p_expr(P))) return NULL;
  if (is_left && init) {
    node *t = pack;
    pack = init, init = t;
  }
  node *n = mk(P, K_FOLD, pack, init);
  if (!n) return NULL;
  n->i = is_left;
  n->s = op_symbol(op);
  return finish(n);
}

static node *p_braced_(parser *P) {
  if (look(P, 0) == 'd') {
    char c = look(P, 1);
    if (c == 'i' || c == 'x') {
      P->p += 2;
      node *field = c == 'i' ? p_source_name(P) : p_expr(P);
      if (!field) return NULL;
      node *n = mk2(P, K_BRACED, field, p_braced_(P));
      if (n) n->i = c == 'x';
      return n;
    }
    if (c == 'X') {
      P->p += 2;
      node *lo = p_expr(P);
      node *hi = lo ? p_expr(P) : NULL;
      return hi ? mk3(P, K_BRACEDRANGE, lo, hi, p_braced_(P), 3) : NULL;
    }
  }
  return p_expr(P);
}

static node *p_simple_id(parser *P) {
  node *sn = p_source_name(P);
  if (!sn || look(P, 0) != 'I') return sn;
  return mk2(P, K_TNAME, sn, p_targs(P, 0));
}

/* <unresolved-type> ::= <template-param> | <decltype> | <substitution> */
static node *p_unresolved_type(parser *P) {
  char c = look(P, 0);
  if (c == 'T' || c == 'D') {
    node *r = c == 'T' ? p_tparam(P) : p_decltype(P);
    return list_push(P, &P->subs, r) ? r : NULL;
  }
  return p_subst(P);
}

/* <base-unresolved-name> ::= <simple-id> | [on] <operator-name> [<template-args>]
 *                          | dn <destructor-name> */
static node *p_base_unresolved(parser *P) {
  if (isdig(look(P, 0))) return p_simple_id(P);
  if (eats(P, "dn")) {
    node *r = isdig(look(P, 0)) ? p_simple_id(P) : p_unresolved_type(P);
    return mk1(P, K_DTORNAME, r);
  }
  eats(P, "on");
  node *op = p_operator_name(P, NULL);
  if (!op || look(P, 0) != 'I') return op;
  return mk2(P, K_TNAME, op, p_targs(P, 0));
}

static node *p_unresolved_qualifier(parser *P, node *so) {
  if (look(P, 0) != 'I') return so;
  return mk2(P, K_TNAME, so, p_targs(P, 0));
}

/* <unresolved-name> ::= [gs] <base-unresolved-name>
 *   | srN <unresolved-type> [<template-args>] <simple-id>* E <base-unresolved-name>
 *   | [gs] sr <simple-id>+ E <base-unresolved-name>
 *   | sr <unresolved-type> [<template-args>] <base-unresolved-name> */
static node *p_unresolved_name(parser *P, int global) {
  node *so = NULL;
  if (eats(P, "srN")) {
    so = p_unresolved_qualifier(P, p_unresolved_type(P));
    while (so && !eat(P, 'E')) so = mk2(P, K_NESTED, so, p_simple_id(P));
    return so ? mk2(P, K_NESTED, so, p_base_unresolved(P)) : NULL;
  }
  if (!eats(P, "sr")) {
    so = p_base_unresolved(P);
    return so && global ? mk1(P, K_GLOBALQ, so) : so;
  }
  if (isdig(look(P, 0))) {
    do {
      node *q = p_simple_id(P);
      if (!q) return NULL;
      so = so ? mk2(P, K_NESTED, so, q) : global ? mk1(P, K_GLOBALQ, q) : q;
      if (!so) return NULL;
    } while (!eat(P, 'E'));
  } else {
    so = p_unresolved_type(P);
    if (so) so = p_unresolved_qualifier(P, so);
    if (!so) return NULL;
  }
  return mk2(P, K_NESTED, so, p_base_unresolved(P));
}

static node *p_expr_list(parser *P, int kind, node *a, char end) {
  nlist l = {0};
  while (!eat(P, end))
    if (!list_push(P, &l, p_expr(P))) return NULL;
  node *n = mk_list(P, kind, &l);
  if (n) n->a = a, n = finish(n);
  return n;
}

static node *p_braced_list(parser *P, node *type) {
  nlist l = {0};
  while (!eat(P, 'E'))
    if (!list_push(P, &l, p_braced_(P))) return NULL;
  node *n = mk_list(P, K_INITLIST, &l);
  if (n) n->a = type, n = finish(n);
  return n;
}

static node *with_text(node *n, sv s, unsigned prec) {
  if (n) n->s = s, n->prec = (unsigned char)prec;
  return n;
}

/* [gs] nw <expression>* _ <type> [pi <expression>*] E */
static node *p_new(parser *P, const opinfo *op, int global) {
  nlist exprs = {0}, inits = {0};
  while (!eat(P, '_'))
    if (!list_push(P, &exprs, p_expr(P))) return NULL;
  node *ty = p_type(P);
  if (!ty) return NULL;
  int have_inits = eats(P, "pi");
  while (!eat(P, 'E'))
    if (!have_inits || !list_push(P, &inits, p_expr(P))) return NULL;
  node *n = mk(P, K_NEW, ty, NULL);
  if (!n) return NULL;
  n->v = exprs.v, n->nv = exprs.n, n->w = inits.v, n->nw = inits.n;
  n->i = (unsigned)global, n->j = op->flag, n->prec = op->prec;
  return finish(n);
}

/* cv <type> (<expression> | _ <expression>* E) */
static node *p_conversion(parser *P, const opinfo *op) {
  int save = P->try_targs;
  P->try_targs = 0;
  node *ty = p_type(P);
  P->try_targs = save;
  if (!ty) return NULL;
  int many = eat(P, '_');
  nlist l = {0};
  while (!eat(P, 'E')) {
    if (!list_push(P, &l, p_expr(P))) return NULL;
    if (!many) break;
  }
  if (!many && l.n != 1) return NULL;
  node *n = mk_list(P, K_CONVEXPR, &l);
  if (n) n->a = ty, n->prec = op->prec, n = finish(n);
  return n;
}

static node *p_operator_expr(parser *P, const opinfo *op, int global) {
  sv sym = op_symbol(op);
  node *a, *b, *n;
  switch (op->kind) {
  case OP_BINARY:
    a = p_expr(P);
    return a ? with_text(mk2(P, K_BINARY, a, p_expr(P)), sym, op->prec) : NULL;
  case OP_PREFIX:
    return with_text(mk1(P, K_PREFIX, p_expr(P)), sym, op->prec);
  case OP_POSTFIX:
    if (eat(P, '_')) return with_text(mk1(P, K_PREFIX, p_expr(P)), sym, op->prec);
    return with_text(mk1(P, K_POSTFIX, p_expr(P)), sym, op->prec);
  case OP_ARRAY:
    a = p_expr(P);
    return a ? with_text(mk2(P, K_SUBSCRIPT, a, p_expr(P)), sym, op->prec) : NULL;
  case OP_MEMBER:
    a = p_expr(P);
    return a ? with_text(mk2(P, K_MEMBER, a, p_expr(P)), sym, op->prec) : NULL;
  case OP_NEW:
    return p_new(P, op, global);
  case OP_DEL:
    n = mk1(P, K_DELETE, p_expr(P));
    if (n) n->i = (unsigned)global, n->j = op->flag, n->prec = op->prec;
    return n;
  case OP_CALL:
    a = p_expr(P);
    n = a ? p_expr_list(P, K_CALL, a, 'E') : NULL;
    if (n) n->i = op->flag, n->prec = op->prec;
    return n;
  case OP_CCAST:
    return p_conversion(P, op);
  case OP_COND:
    a = p_expr(P);
    b = a ? p_expr(P) : NULL;
    return b ? with_text(mk3(P, K_CONDITIONAL, a, b, p_expr(P), 3), sym, op->prec) : NULL;
  case OP_NAMEDCAST:
    a = p_type(P);
    return a ? with_text(mk2(P, K_CAST, a, p_expr(P)), sym, op->prec) : NULL;
  case OP_OFID:
    return with_text(mk1(P, K_ENCLOSING, op->flag ? p_type(P) : p_expr(P)), sym, op->prec);
  default:
    return NULL;
  }
}

/* u <source-name> <template-arg>* E: a vendor extended expression */
static node *p_vendor_expr(parser *P) {
  node *nm = p_source_name(P);
  if (!nm) return NULL;
  nlist l = {0};
  if (nm->s.n == 8 && !memcmp(nm->s.p, "__uuidof", 8) && (look(P, 0) == 't' || look(P, 0) == 'z')) {
    int type = eat(P, 't') || !eat(P, 'z');
    if (!list_push(P, &l, type ? p_type(P) : p_expr(P))) return NULL;
  } else {
    while (!eat(P, 'E'))
      if (!list_push(P, &l, p_targ(P))) return NULL;
  }
  node *n = mk_list(P, K_CALL, &l);
  if (n) n->a = nm, n->prec = P_POSTFIX, n = finish(n);
  return n;
}

static node *p_sizeof_pack(parser *P) {
  if (look(P, 0) == 'T') return mk1(P, K_SIZEOFPACK, p_tparam(P));
  node *n = mk1(P, K_ENCLOSING, p_function_param(P));
  if (n) n->s = cstr("sizeof... ");
  return n;
}

static node *p_expr_(parser *P) {
  int global = eats(P, "gs");
  const opinfo *op = p_op_encoding(P);
  if (op) return p_operator_expr(P, op, global);
  if (left(P) < 2) return NULL;
  char c = look(P, 0), d = look(P, 1);
  if (c == 'L') return p_expr_primary(P);
  if (c == 'T') return p_tparam(P);
  if (c == 'f') {
    if (d == 'p' || (d == 'L' && isdig(look(P, 2)))) return p_function_param(P);
    return p_fold(P);
  }
  if (eats(P, "il")) return p_braced_list(P, NULL);
  if (eats(P, "nx")) return with_text(mk1(P, K_ENCLOSING, p_expr(P)), cstr("noexcept "), P_UNARY);
  if (eats(P, "sp")) return mk1(P, K_EXPANSION, p_expr(P));
  if (eats(P, "sZ")) return p_sizeof_pack(P);
  if (eats(P, "sP")) {
    nlist l = {0};
    while (!eat(P, 'E'))
      if (!list_push(P, &l, p_targ(P))) return NULL;
    return with_text(mk1(P, K_ENCLOSING, mk_list(P, K_NODEARRAY, &l)), cstr("sizeof... "),
                     P_PRIMARY);
  }
  if (eats(P, "tl")) {
    node *ty = p_type(P);
    return ty ? p_braced_list(P, ty) : NULL;
  }
  if (eats(P, "tr")) return mk_name(P, "throw");
  if (eats(P, "tw")) return mk1(P, K_THROW, p_expr(P));
  if (eat(P, 'u')) return p_vendor_expr(P);
  /* mc, so, rq, rQ (member pointer conversions, subobjects, requires
   * expressions) are not supported */
  if ((c == 'm' && d == 'c') || (c == 's' && d == 'o') || (c == 'r' && (d == 'q' || d == 'Q')))
    return NULL;
  return p_unresolved_name(P, global);
}

static node *p_expr(parser *P) {
  GUARD(p_expr_(P));
}

/* ---- encodings ------------------------------------------------------ */

/* <call-offset> ::= h <number> _ | v <number> _ <number> _ */
static int p_call_offset(parser *P) {
  if (eat(P, 'h')) return p_number(P, 1).n && eat(P, '_');
  if (eat(P, 'v')) return p_number(P, 1).n && eat(P, '_') && p_number(P, 1).n && eat(P, '_');
  return 0;
}

static node *mk_special(parser *P, const char *text, node *child) {
  node *n = mk1(P, K_SPECIAL, child);
  if (n) n->s = cstr(text);
  return n;
}

static node *p_special_t(parser *P) {
  char c = look(P, 1);
  static const char *const texts[128] = {
      ['V'] = "vtable for ",
      ['T'] = "VTT for ",
      ['I'] = "typeinfo for ",
      ['S'] = "typeinfo name for ",
  };
  if (c > 0 && texts[(int)c]) {
    P->p += 2;
    return mk_special(P, texts[(int)c], p_type(P));
  }
  switch (c) {
  case 'A':
    P->p += 2;
    return mk_special(P, "template parameter object for ", p_targ(P));
  case 'c':
    P->p += 2;
    if (!p_call_offset(P) || !p_call_offset(P)) return NULL;
    return mk_special(P, "covariant return thunk to ", p_encoding(P));
  case 'C': {
    P->p += 2;
    node *first = p_type(P);
    if (!first || !p_number(P, 1).n || !eat(P, '_')) return NULL;
    return mk2(P, K_CTORVTABLE, first, p_type(P));
  }
  case 'W':
    P->p += 2;
    return mk_special(P, "thread-local wrapper routine for ", p_name(P, NULL));
  case 'H':
    P->p += 2;
    return mk_special(P, "thread-local initialization routine for ", p_name(P, NULL));
  default: {
    P->p++;
    int virt = look(P, 0) == 'v';
    if (!p_call_offset(P)) return NULL;
    return mk_special(P, virt ? "virtual thunk to " : "non-virtual thunk to ", p_encoding(P));
  }
  }
}

/* <special-name> ::= T... (vtables, typeinfo, thunks) | GV <name> | GR <name> [<seq-id>] _ */
static node *p_special_name(parser *P) {
  if (look(P, 0) == 'T') return p_special_t(P);
  if (eats(P, "GV")) return mk_special(P, "guard variable for ", p_name(P, NULL));
  if (eats(P, "GR")) {
    node *nm = p_name(P, NULL);
    if (!nm) return NULL;
    size_t k;
    int seq = p_seqid(P, &k);
    if (!eat(P, '_') && seq) return NULL;
    return mk_special(P, "reference temporary for ", nm);
  }
  return NULL;
}

static int end_of_encoding(parser *P) {
  char c = look(P, 0);
  return !left(P) || c == 'E' || c == '.' || c == '_';
}

/* <encoding> ::= <name> [<return type>] <parameter types> | <name> | <special-name> */
static node *p_encoding_body(parser *P) {
  char c = look(P, 0);
  if (c == 'G' || c == 'T') return p_special_name(P);
  name_state st = {0};
  st.fwd_begin = P->fwd.n;
  node *name = p_name(P, &st);
  if (!name || !resolve_fwd(P, &st)) return NULL;
  if (end_of_encoding(P)) return name;
  node *attrs = NULL;
  if (eats(P, "Ua9enable_ifI")) {
    nlist l = {0};
    while (!eat(P, 'E'))
      if (!list_push(P, &l, p_targ(P))) return NULL;
    if (!(attrs = mk_list(P, K_ENABLEIF, &l))) return NULL;
  }
  node *ret = NULL;
  if (!st.ctor_dtor_conv && st.ends_with_targs && !(ret = p_type(P))) return NULL;
  nlist params = {0};
  if (!eat(P, 'v')) {
    do {
      node *t = p_type(P);
      if (t && st.explicit_obj && !params.n) t = mk1(P, K_EXPLICITOBJ, t);
      if (!list_push(P, &params, t)) return NULL;
    } while (!end_of_encoding(P) && look(P, 0) != 'Q');
  }
  if (look(P, 0) == 'Q') return NULL; /* requires-clause: not supported */
  node *n = mk(P, K_ENCODING, ret, name);
  if (!n) return NULL;
  n->c = attrs;
  n->v = params.v, n->nv = params.n, n->i = st.cv, n->j = st.ref;
  return finish(n);
}

static node *p_encoding_(parser *P) {
  tp_saved saved;
  tp_save(P, &saved);
  node *r = p_encoding_body(P);
  tp_restore(P, &saved);
  return r;
}

static node *p_encoding(parser *P) {
  GUARD(p_encoding_(P));
}

/* ---- printer -------------------------------------------------------- */

typedef struct {
  char *buf;
  size_t len, cap;
  int fail;
  unsigned gt;         /* 0 inside template arguments: a '>' there closes them */
  unsigned pidx, pmax; /* the pack element being printed, of how many */
  unsigned long steps;
  int depth;
} out;

static void put(out *o, const char *s, size_t n) {
  if (o->fail || !n) return;
  if (o->len + n + 1 > o->cap) {
    size_t nc = o->cap ? o->cap : 256;
    while (nc < o->len + n + 1) nc *= 2;
    if (nc > RTG_DEMANGLE_MAX_OUT + 1) nc = RTG_DEMANGLE_MAX_OUT + 1;
    char *nb = o->len + n + 1 <= nc ? realloc(o->buf, nc) : NULL;
    if (!nb) {
      o->fail = 1;
      return;
    }
    o->buf = nb;
    o->cap = nc;
  }
  memcpy(o->buf + o->len, s, n);
  o->len += n;
}

static void puts_(out *o, const char *s) {
  put(o, s, strlen(s));
}

static void putsv(out *o, sv s) {
  put(o, s.p, s.n);
}

static void open_(out *o, char c) {
  o->gt++;
  put(o, &c, 1);
}

static void close_(out *o, char c) {
  o->gt--;
  put(o, &c, 1);
}

static void print_left(out *o, node *n);
static void print_right(out *o, node *n);

static void print(out *o, node *n) {
  print_left(o, n);
  if (n->rhs != NO) print_right(o, n);
}

/* The first pack met outside an expansion starts one at its element 0. */
static void init_pack(out *o, const node *n) {
  if (o->pmax == UNSET) {
    o->pmax = (unsigned)n->nv;
    o->pidx = 0;
  }
}

static node *pack_element(out *o, node *n) {
  init_pack(o, n);
  return o->pidx < n->nv ? n->v[o->pidx] : NULL;
}

enum { Q_RHS, Q_ARR, Q_FN };

/* Whether n has a right half (Q_RHS), is an array or a function type,
 * for the pack element being printed. */
static int has(out *o, node *n, int what) {
  unsigned char known = what == Q_RHS ? n->rhs : what == Q_ARR ? n->arr : n->fn;
  if (known != UNKNOWN) return known == YES;
  int r = 0;
  switch (n->kind) {
  case K_POINTER:
  case K_REF:
  case K_QUAL:
    r = has(o, n->a, what);
    break;
  case K_PTRMEM:
    r = has(o, n->b, what);
    break;
  case K_PACK: {
    node *e = pack_element(o, n);
    r = e && has(o, e, what);
    break;
  }
  case K_FWDREF:
    if (n->busy || !n->a) return 0;
    n->busy = 1;
    r = has(o, n->a, what);
    n->busy = 0;
    break;
  default:
    break;
  }
  return r;
}

/* the node that stands for n syntactically: a pack's current element */
static node *syntax_node(out *o, node *n) {
  if (n->kind == K_PACK) {
    node *e = pack_element(o, n);
    return e ? syntax_node(o, e) : n;
  }
  if (n->kind == K_FWDREF && !n->busy && n->a) {
    n->busy = 1;
    node *r = syntax_node(o, n->a);
    n->busy = 0;
    return r;
  }
  return n;
}

/* Reference collapsing: & & -> &, && & -> &, && && -> &&. */
static node *collapse(out *o, node *n, int *rvalue) {
  *rvalue = n->i;
  node *p = n->a;
  for (int k = 0; k < 1024; k++) {
    node *sn = syntax_node(o, p);
    if (sn->kind != K_REF) return p;
    p = sn->a;
    *rvalue = *rvalue && sn->i;
  }
  return NULL;
}

static void operand(out *o, node *n, int prec, int strict) {
  int paren = (int)n->prec >= prec + strict;
  if (paren) open_(o, '(');
  print(o, n);
  if (paren) close_(o, ')');
}

/* Elements separated by ", "; one that prints nothing (an empty pack
 * expansion) takes no separator. */
static void list_comma(out *o, node **v, size_t n) {
  int first = 1;
  for (size_t k = 0; k < n && !o->fail; k++) {
    size_t before = o->len;
    if (!first) puts_(o, ", ");
    size_t after = o->len;
    operand(o, v[k], P_COMMA, 0);
    if (o->len == after) {
      o->len = before;
      continue;
    }
    first = 0;
  }
}

static void print_quals(out *o, unsigned q) {
  if (q & Q_CONST) puts_(o, " const");
  if (q & Q_VOLATILE) puts_(o, " volatile");
  if (q & Q_RESTRICT) puts_(o, " restrict");
}

static void print_ref_qual(out *o, unsigned ref) {
  if (ref == REF_LVALUE) puts_(o, " &");
  if (ref == REF_RVALUE) puts_(o, " &&");
}

static void print_params(out *o, node *n) {
  open_(o, '(');
  list_comma(o, n->v, n->nv);
  close_(o, ')');
}

static void print_template_list(out *o, node **v, size_t n, const char *opening) {
  unsigned gt = o->gt;
  o->gt = 0;
  puts_(o, opening);
  list_comma(o, v, n);
  puts_(o, ">");
  o->gt = gt;
}

/* A pack expansion prints its child once per element of the first pack
 * found in it, or the child and "..." when it holds no pack. */
static void print_expansion(out *o, node *child) {
  unsigned idx = o->pidx, max = o->pmax;
  o->pidx = o->pmax = UNSET;
  size_t start = o->len;
  print(o, child);
  if (o->pmax == UNSET) {
    puts_(o, "...");
  } else if (o->pmax == 0) {
    o->len = start;
  } else {
    for (unsigned k = 1; k < o->pmax && !o->fail; k++) {
      puts_(o, ", ");
      o->pidx = k;
      print(o, child);
    }
  }
  o->pidx = idx, o->pmax = max;
}

static const char *const sub_names[] = {"allocator",     "basic_string",  "basic_string",
                                        "basic_istream", "basic_ostream", "basic_iostream"};
enum { SUB_STRING = 2 }; /* Ss and those after it are instantiations */

static sv base_name(node *n) {
  for (;;) {
    switch (n->kind) {
    case K_NAME:
      return n->s;
    case K_NESTED:
    case K_FRIEND:
      n = n->b;
      continue;
    case K_TNAME:
    case K_ABITAG:
      n = n->a;
      continue;
    case K_SPECIAL_SUB: {
      sv s = cstr(sub_names[n->i]);
      if (n->i >= SUB_STRING) s.p += 6, s.n -= 6; /* std::string, not basic_string */
      return s;
    }
    case K_EXPANDED_SUB:
      return cstr(sub_names[n->i]);
    default: {
      sv none = {"", 0};
      return none;
    }
    }
  }
}

static void print_int(out *o, sv v) {
  if (v.n && v.p[0] == 'n') {
    puts_(o, "-");
    v.p++, v.n--;
  }
  putsv(o, v);
}

static unsigned hexval(char c) {
  return isdig(c) ? (unsigned)(c - '0') : (unsigned)(c - 'a' + 10);
}

/* The literal's bytes, most significant first in the mangling, printed
 * with %a as LLVM does. */
static void print_float(out *o, node *n) {
  unsigned char bytes[16] = {0};
  size_t nb = n->s.n / 2;
  for (size_t k = 0; k < nb; k++)
    bytes[nb - 1 - k] = (unsigned char)((hexval(n->s.p[2 * k]) << 4) | hexval(n->s.p[2 * k + 1]));
  char text[64];
  int len;
  if (n->i == 0) {
    float f;
    memcpy(&f, bytes, sizeof f);
    len = snprintf(text, sizeof text, "%af", (double)f);
  } else if (n->i == 1) {
    double d;
    memcpy(&d, bytes, sizeof d);
    len = snprintf(text, sizeof text, "%a", d);
  } else {
    long double ld = 0;
    memcpy(&ld, bytes, sizeof ld < sizeof bytes ? sizeof ld : sizeof bytes);
    len = snprintf(text, sizeof text, "%LaL", ld);
  }
  if (len > 0) put(o, text, (size_t)len < sizeof text ? (size_t)len : sizeof text - 1);
}

static void print_closure_declarator(out *o, node *n) {
  if (n->nw) print_template_list(o, n->w, n->nw, "<");
  print_params(o, n);
}

static void print_binary(out *o, node *n) {
  int paren_all = o->gt == 0 &&
                  ((n->s.n == 1 && n->s.p[0] == '>') || (n->s.n == 2 && !memcmp(n->s.p, ">>", 2)));
  if (paren_all) open_(o, '(');
  int assign = n->prec == P_ASSIGN;
  operand(o, n->a, assign ? P_ORIF : n->prec, !assign);
  if (!(n->s.n == 1 && n->s.p[0] == ',')) puts_(o, " ");
  putsv(o, n->s);
  puts_(o, " ");
  operand(o, n->b, n->prec, assign);
  if (paren_all) close_(o, ')');
}

static void print_fold(out *o, node *n) {
  open_(o, '(');
  if (!n->i || n->b) {
    if (n->i) {
      operand(o, n->b, P_CAST, 1);
    } else {
      open_(o, '(');
      print_expansion(o, n->a);
      close_(o, ')');
    }
    puts_(o, " ");
    putsv(o, n->s);
    puts_(o, " ");
  }
  puts_(o, "...");
  if (n->i || n->b) {
    puts_(o, " ");
    putsv(o, n->s);
    puts_(o, " ");
    if (n->i) {
      open_(o, '(');
      print_expansion(o, n->a);
      close_(o, ')');
    } else {
      operand(o, n->b, P_CAST, 1);
    }
  }
  close_(o, ')');
}

static void print_new(out *o, node *n) {
  if (n->i) puts_(o, "::");
  puts_(o, "new");
  if (n->j) puts_(o, "[]");
  if (n->nv) {
    open_(o, '(');
    list_comma(o, n->v, n->nv);
    close_(o, ')');
  }
  puts_(o, " ");
  print(o, n->a);
  if (n->nw) {
    open_(o, '(');
    list_comma(o, n->w, n->nw);
    close_(o, ')');
  }
}

static void print_braced(out *o, node *n) {
  if (n->kind == K_BRACEDRANGE) {
    puts_(o, "[");
    print(o, n->a);
    puts_(o, " ... ");
    print(o, n->b);
    puts_(o, "]");
  } else if (n->i) {
    puts_(o, "[");
    print(o, n->a);
    puts_(o, "]");
  } else {
    puts_(o, ".");
    print(o, n->a);
  }
  node *init = n->kind == K_BRACEDRANGE ? n->c : n->b;
  if (init->kind != K_BRACED && init->kind != K_BRACEDRANGE) puts_(o, " = ");
  print(o, init);
}

static void print_synth(out *o, node *n) {
  static const char *const prefix[] = {"$T", "$N", "$TT"};
  puts_(o, prefix[n->i]);
  if (n->j > 0) {
    char num[16];
    int len = snprintf(num, sizeof num, "%u", n->j - 1);
    if (len > 0) put(o, num, (size_t)len);
  }
}

/* the left half of the types: what comes before the declarator */
static int print_left_type(out *o, node *n) {
  int rv;
  node *p;
  switch (n->kind) {
  case K_FUNC:
    print_left(o, n->a);
    puts_(o, " ");
    return 1;
  case K_POINTER:
    print_left(o, n->a);
    if (has(o, n->a, Q_ARR)) puts_(o, " ");
    if (has(o, n->a, Q_ARR) || has(o, n->a, Q_FN)) puts_(o, "(");
    puts_(o, "*");
    return 1;
  case K_REF:
    if (n->busy) return 1;
    n->busy = 1;
    if ((p = collapse(o, n, &rv))) {
      print_left(o, p);
      if (has(o, p, Q_ARR)) puts_(o, " ");
      if (has(o, p, Q_ARR) || has(o, p, Q_FN)) puts_(o, "(");
      puts_(o, rv ? "&&" : "&");
    }
    n->busy = 0;
    return 1;
  case K_PTRMEM:
    print_left(o, n->b);
    puts_(o, has(o, n->b, Q_ARR) || has(o, n->b, Q_FN) ? "(" : " ");
    print(o, n->a);
    puts_(o, "::*");
    return 1;
  case K_ARRAY:
    print_left(o, n->a);
    return 1;
  case K_QUAL:
    print_left(o, n->a);
    print_quals(o, n->i);
    return 1;
  case K_VENDORQUAL:
    print(o, n->a);
    puts_(o, " ");
    putsv(o, n->s);
    if (n->b) print(o, n->b);
    return 1;
  case K_VECTOR:
  case K_PIXELVEC:
    if (n->a)
      print(o, n->a), puts_(o, " vector[");
    else
      puts_(o, "pixel vector[");
    if (n->b) print(o, n->b);
    puts_(o, "]");
    return 1;
  case K_BINFP:
    puts_(o, "_Float");
    print(o, n->b);
    return 1;
  case K_BITINT:
    if (!n->i) puts_(o, "unsigned ");
    puts_(o, "_BitInt");
    open_(o, '(');
    operand(o, n->b, P_DEFAULT, 0);
    close_(o, ')');
    return 1;
  case K_POSTFIXQ:
    print_left(o, n->a);
    putsv(o, n->s);
    return 1;
  case K_ELAB:
    putsv(o, n->s);
    puts_(o, " ");
    print(o, n->a);
    return 1;
  case K_TRANSFORMED:
    putsv(o, n->s);
    puts_(o, "(");
    print(o, n->a);
    puts_(o, ")");
    return 1;
  default:
    return 0;
  }
}

/* names, and the things around them */
static int print_left_name(out *o, node *n) {
  node *e;
  switch (n->kind) {
  case K_NAME:
    putsv(o, n->s);
    return 1;
  case K_NESTED:
  case K_LOCAL:
    print(o, n->a);
    puts_(o, "::");
    print(o, n->b);
    return 1;
  case K_FRIEND:
    print(o, n->a);
    puts_(o, "::friend ");
    print(o, n->b);
    return 1;
  case K_TNAME:
    print(o, n->a);
    print(o, n->b);
    return 1;
  case K_TARGS:
    print_template_list(o, n->v, n->nv, "<");
    return 1;
  case K_PACK:
    if ((e = pack_element(o, n))) print_left(o, e);
    return 1;
  case K_TARGPACK:
  case K_NODEARRAY:
    list_comma(o, n->v, n->nv);
    return 1;
  case K_EXPANSION:
    print_expansion(o, n->a);
    return 1;
  case K_FWDREF:
    if (n->busy || !n->a) return 1;
    n->busy = 1;
    print_left(o, n->a);
    n->busy = 0;
    return 1;
  case K_SPECIAL_SUB:
    puts_(o, "std::");
    putsv(o, base_name(n));
    return 1;
  case K_EXPANDED_SUB:
    puts_(o, "std::");
    puts_(o, sub_names[n->i]);
    if (n->i >= SUB_STRING) {
      puts_(o, "<char, std::char_traits<char>");
      if (n->i == SUB_STRING) puts_(o, ", std::allocator<char>");
      puts_(o, ">");
    }
    return 1;
  case K_CTORDTOR:
    if (n->i) puts_(o, "~");
    putsv(o, base_name(n->a));
    return 1;
  case K_ABITAG:
    print_left(o, n->a);
    puts_(o, "[abi:");
    putsv(o, n->s);
    puts_(o, "]");
    return 1;
  case K_ENCODING:
    if (n->a) {
      print_left(o, n->a);
      if (!has(o, n->a, Q_RHS)) puts_(o, " ");
    }
    print(o, n->b);
    return 1;
  case K_DOTSUFFIX:
    print(o, n->a);
    puts_(o, " (");
    putsv(o, n->s);
    puts_(o, ")");
    return 1;
  case K_SPECIAL:
    putsv(o, n->s);
    print(o, n->a);
    return 1;
  case K_CTORVTABLE:
    puts_(o, "construction vtable for "); /* the second type, in the first */
    print(o, n->b);
    puts_(o, "-in-");
    print(o, n->a);
    return 1;
  case K_CLOSURE:
    puts_(o, "'lambda");
    putsv(o, n->s);
    puts_(o, "'");
    print_closure_declarator(o, n);
    return 1;
  case K_UNNAMED:
    puts_(o, "'unnamed");
    putsv(o, n->s);
    puts_(o, "'");
    return 1;
  case K_CONVOP:
    puts_(o, "operator ");
    print(o, n->a);
    return 1;
  case K_LITOP:
    puts_(o, "operator\"\" ");
    print(o, n->a);
    return 1;
  case K_GLOBALQ:
    puts_(o, "::");
    print(o, n->a);
    return 1;
  case K_DTORNAME:
    puts_(o, "~");
    print_left(o, n->a);
    return 1;
  case K_STRUCTBIND:
    open_(o, '[');
    list_comma(o, n->v, n->nv);
    close_(o, ']');
    return 1;
  case K_EXPLICITOBJ:
    puts_(o, "this ");
    print(o, n->a);
    return 1;
  case K_ENABLEIF:
    puts_(o, " [enable_if:");
    list_comma(o, n->v, n->nv);
    puts_(o, "]");
    return 1;
  default:
    return 0;
  }
}

static void print_left_literal(out *o, node *n) {
  switch (n->kind) {
  case K_INTLIT:
    if (n->s.n > 3) {
      open_(o, '(');
      putsv(o, n->s);
      close_(o, ')');
    }
    print_int(o, n->t);
    if (n->s.n <= 3) putsv(o, n->s);
    break;
  case K_ENUMLIT:
    open_(o, '(');
    print(o, n->a);
    close_(o, ')');
    print_int(o, n->t);
    break;
  case K_BOOL:
    puts_(o, n->i ? "true" : "false");
    break;
  case K_FLOATLIT:
    print_float(o, n);
    break;
  case K_STRINGLIT:
    puts_(o, "\"<");
    print(o, n->a);
    puts_(o, ">\"");
    break;
  case K_LAMBDAEXPR:
    puts_(o, "[]");
    if (n->a->kind == K_CLOSURE) print_closure_declarator(o, n->a);
    puts_(o, "{...}");
    break;
  case K_FUNCPARAM:
    puts_(o, "fp");
    putsv(o, n->s);
    break;
  default:
    break;
  }
}

static void print_left_expr(out *o, node *n) {
  switch (n->kind) {
  case K_BINARY:
    print_binary(o, n);
    break;
  case K_PREFIX:
    putsv(o, n->s);
    operand(o, n->a, n->prec, 0);
    break;
  case K_POSTFIX:
    operand(o, n->a, n->prec, 1);
    putsv(o, n->s);
    break;
  case K_SUBSCRIPT:
    operand(o, n->a, n->prec, 0);
    open_(o, '[');
    operand(o, n->b, P_DEFAULT, 0);
    close_(o, ']');
    break;
  case K_MEMBER:
    operand(o, n->a, n->prec, 1);
    putsv(o, n->s);
    operand(o, n->b, n->prec, 0);
    break;
  case K_NEW:
    print_new(o, n);
    break;
  case K_DELETE:
    if (n->i) puts_(o, "::");
    puts_(o, n->j ? "delete[] " : "delete ");
    print(o, n->a);
    break;
  case K_CALL:
    if (n->i) open_(o, '(');
    print(o, n->a);
    if (n->i) close_(o, ')');
    print_params(o, n);
    break;
  case K_CONVEXPR:
    open_(o, '(');
    print(o, n->a);
    close_(o, ')');
    print_params(o, n);
    break;
  case K_CONDITIONAL:
    operand(o, n->a, n->prec, 0);
    puts_(o, " ? ");
    operand(o, n->b, P_DEFAULT, 0);
    puts_(o, " : ");
    operand(o, n->c, P_ASSIGN, 1);
    break;
  case K_CAST: {
    putsv(o, n->s);
    unsigned gt = o->gt;
    o->gt = 0;
    puts_(o, "<");
    print_left(o, n->a);
    puts_(o, ">");
    o->gt = gt;
    open_(o, '(');
    operand(o, n->b, P_DEFAULT, 0);
    close_(o, ')');
    break;
  }
  case K_ENCLOSING:
    putsv(o, n->s);
    open_(o, '(');
    print(o, n->a);
    close_(o, ')');
    break;
  case K_NOEXCEPT:
    puts_(o, "noexcept");
    open_(o, '(');
    operand(o, n->a, P_DEFAULT, 0);
    close_(o, ')');
    break;
  case K_SIZEOFPACK:
    puts_(o, "sizeof...");
    open_(o, '(');
    print_expansion(o, n->a);
    close_(o, ')');
    break;
  case K_INITLIST:
    if (n->a) print(o, n->a);
    puts_(o, "{");
    list_comma(o, n->v, n->nv);
    puts_(o, "}");
    break;
  case K_BRACED:
  case K_BRACEDRANGE:
    print_braced(o, n);
    break;
  case K_FOLD:
    print_fold(o, n);
    break;
  case K_THROW:
    puts_(o, "throw ");
    print(o, n->a);
    break;
  case K_DYNEXC:
    puts_(o, "throw");
    print_params(o, n);
    break;
  default:
    print_left_literal(o, n);
    break;
  }
}

static void print_left_decl(out *o, node *n) {
  switch (n->kind) {
  case K_TPARAMQARG:
    print(o, n->b);
    break;
  case K_TYPEDECL:
    puts_(o, "typename ");
    break;
  case K_NONTYPEDECL:
    print_left(o, n->b);
    if (!has(o, n->b, Q_RHS)) puts_(o, " ");
    break;
  case K_TTDECL:
    print_template_list(o, n->v, n->nv, "template<");
    puts_(o, " typename ");
    break;
  case K_PACKDECL:
    print_left(o, n->a);
    puts_(o, "...");
    break;
  case K_CONSTRDECL:
    print(o, n->a);
    puts_(o, " ");
    break;
  case K_SYNTH:
    print_synth(o, n);
    break;
  default:
    print_left_expr(o, n);
    break;
  }
}

static int enter(out *o) {
  if (o->fail) return 0;
  if (++o->steps > MAX_STEPS || o->depth >= MAX_PRINT_DEPTH) {
    o->fail = 1;
    return 0;
  }
  o->depth++;
  return 1;
}

static void print_left(out *o, node *n) {
  if (!enter(o)) return;
  if (!print_left_type(o, n) && !print_left_name(o, n)) print_left_decl(o, n);
  o->depth--;
}

static void print_right_body(out *o, node *n) {
  node *p;
  int rv;
  switch (n->kind) {
  case K_PACK:
    if ((p = pack_element(o, n))) print_right(o, p);
    break;
  case K_FWDREF:
    if (n->busy || !n->a) break;
    n->busy = 1;
    print_right(o, n->a);
    n->busy = 0;
    break;
  case K_ENCODING:
    print_params(o, n);
    if (n->a) print_right(o, n->a);
    print_quals(o, n->i);
    print_ref_qual(o, n->j);
    if (n->c) print(o, n->c);
    break;
  case K_FUNC:
    print_params(o, n);
    print_right(o, n->a);
    print_quals(o, n->i);
    print_ref_qual(o, n->j);
    if (n->b) puts_(o, " "), print(o, n->b);
    break;
  case K_POINTER:
    if (has(o, n->a, Q_ARR) || has(o, n->a, Q_FN)) puts_(o, ")");
    print_right(o, n->a);
    break;
  case K_REF:
    if (n->busy) break;
    n->busy = 1;
    if ((p = collapse(o, n, &rv))) {
      if (has(o, p, Q_ARR) || has(o, p, Q_FN)) puts_(o, ")");
      print_right(o, p);
    }
    n->busy = 0;
    break;
  case K_PTRMEM:
    if (has(o, n->b, Q_ARR) || has(o, n->b, Q_FN)) puts_(o, ")");
    print_right(o, n->b);
    break;
  case K_ARRAY:
    if (!o->len || o->buf[o->len - 1] != ']') puts_(o, " ");
    puts_(o, "[");
    if (n->b) print(o, n->b);
    puts_(o, "]");
    print_right(o, n->a);
    break;
  case K_QUAL:
    print_right(o, n->a);
    break;
  case K_TYPEDECL:
  case K_TTDECL:
  case K_CONSTRDECL:
    print(o, n->kind == K_CONSTRDECL ? n->b : n->a);
    break;
  case K_NONTYPEDECL:
    print(o, n->a);
    print_right(o, n->b);
    break;
  case K_PACKDECL:
    print_right(o, n->a);
    break;
  default:
    break;
  }
}

static void print_right(out *o, node *n) {
  if (!enter(o)) return;
  print_right_body(o, n);
  o->depth--;
}

/* ---- entry ---------------------------------------------------------- */

static node *parse(parser *P) {
  node *n = p_encoding(P);
  if (n && look(P, 0) == '.') { /* .cold, .part.0, .kd...: shown after the name */
    node *d = mk1(P, K_DOTSUFFIX, n);
    if (d) d->s.p = P->p, d->s.n = left(P);
    n = d;
    P->p = P->end;
  }
  return n && P->p == P->end ? n : NULL;
}

char *rtg_demangle(const char *mangled, size_t len) {
  if (!mangled || len < 3 || len > RTG_DEMANGLE_MAX_IN || mangled[0] != '_' || mangled[1] != 'Z')
    return NULL;
  for (size_t k = 0; k < len; k++)
    if ((unsigned char)mangled[k] < 0x20 || mangled[k] == 0x7f) return NULL;
  parser P;
  memset(&P, 0, sizeof P);
  P.p = mangled + 2;
  P.end = mangled + len;
  P.try_targs = 1;
  P.lambda_level = SIZE_MAX;
  node *n = parse(&P);
  out o;
  memset(&o, 0, sizeof o);
  o.gt = 1;
  o.pidx = o.pmax = UNSET;
  if (n) print(&o, n);
  arena_free(&P.A);
  if (!n || o.fail || !o.len) {
    free(o.buf);
    return NULL;
  }
  o.buf[o.len] = 0;
  return o.buf;
}
