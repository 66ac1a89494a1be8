/* fcsim — what a .geo script may do: describe geometry and meshing, nothing else.
 *
 * A .geo file is a Gmsh script, run by Gmsh's parser when the mesh is loaded. Gmsh's language
 * can run shell commands (SystemCall), end the process (Exit: fcsim would stop with exit
 * status 0 and print nothing), write files (Save, Print, Printf > file, CreateDir) and read
 * any file (Include, Merge). A case shared by a colleague must do none of that, and libgmsh 4.8
 * has no option that turns these commands off. The sandbox (mesh_sandbox.c) is what makes
 * that impossible; this check is the friendly first line: the text of the script — and,
 * recursively, of every script it includes or merges — is read before Gmsh opens anything,
 * and what it refuses is named with its line; the rules are listed in doc/mesh.md ("What a
 * .geo may do").
 *
 * The check works on Gmsh's own tokens (its lexer: comments // and / * ... * /, strings "..."
 * and '...' without escapes, names [A-Za-z_][A-Za-z0-9_]*; see GMSH_STRING_MAX and SkipWord for
 * where Gmsh 4.8 differs), so words in comments and strings are ignored, and spacing cannot
 * hide a name. Command names are plain names in Gmsh's
 * grammar; the one way to build a name at run time, S2N/StringToName, is refused for that
 * reason (S2N["SystemCall"] "..." runs the command in Gmsh 4.8). */
#define _XOPEN_SOURCE 700 /* realpath */
#include "mesh_impl.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <fcntl.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/stat.h>

/* Include chains deeper than this are refused (Gmsh itself recurses without a limit). */
#define SCRIPT_MAX_DEPTH 16

typedef enum { TOK_NAME, TOK_STRING, TOK_NUMBER, TOK_PUNCT } TokType;

typedef struct {
  TokType     type;
  int         line;
  const char *s; /* into the script's text; a string's content without its quotes */
  size_t      len;
} Tok;

typedef struct {
  const char *top;                      /* the mesh file as given: every message starts with it */
  char        root[PETSC_MAX_PATH_LEN]; /* real path of the folder it is named in: every file
                                          read must be below it */
  size_t      rootlen;
  char      **done; /* real paths of the scripts checked so far */
  PetscInt    ndone, capdone;
  const char *chain[SCRIPT_MAX_DEPTH + 1]; /* real paths of the scripts being checked (nesting) */
  int         depth;
} ScanCtx;

/* One script being checked: its name as Gmsh opens it, for messages and relative paths. */
typedef struct {
  const char *name;
} Script;

/* Names refused wherever they occur outside comments and strings, with the reason. */
static const struct {
  const char *name, *why;
} refused_names[] = {
  {"SystemCall", "runs a shell command"},
  {"System", "runs a shell command"},
  {"NonBlockingSystemCall", "runs a shell command"},
  {"OnelabRun", "runs an external program (a ONELAB client)"},
  {"OnelabAction", "drives ONELAB clients, which are external programs"},
  {"ExternalProcess", "makes a mesh size field that runs an external program"},
  {"Exit", "ends the process (fcsim would stop with exit status 0 and no output)"},
  {"Abort", "stops reading the script part-way, leaving a partial model without an error"},
  {"Save", "writes a file"},
  {"Print", "writes an image file"},
  {"CreateDir", "creates a folder"},
  {"Plugin", "runs a post-processing plugin (some write files, e.g. HomologyComputation writes homology.msh)"},
  {"Sleep", "pauses the run"},
  {"S2N", "turns a string into a name at run time, which could hide any command (S2N[\"SystemCall\"] runs one) from this check"},
  {"StringToName", "turns a string into a name at run time, which could hide any command (S2N[\"SystemCall\"] runs one) from this check"},
  {"Structured", "makes a mesh size field that reads a file Gmsh looks up from the working directory, not from the script's folder"},
};

/* Commands that read the file named by their argument, which must stay in the mesh's folder. */
typedef enum {
  READ_SCRIPT, /* Include: always run as a script */
  READ_MERGE,  /* Merge: a script unless Gmsh reads it as data (see IsDataFile) */
  READ_DATA    /* ShapeFromFile, ListFromFile: read as data */
} ReadKind;

static const struct {
  const char *name;
  ReadKind    kind;
  PetscBool   paren; /* NAME("file") rather than NAME "file"; */
} read_commands[] = {
  {"Include", READ_SCRIPT, PETSC_FALSE},
  {"Merge", READ_MERGE, PETSC_FALSE},
  {"MergeWithBoundingBox", READ_MERGE, PETSC_FALSE},
  {"ShapeFromFile", READ_DATA, PETSC_TRUE},
  {"ListFromFile", READ_DATA, PETSC_TRUE},
};

#define NELEMS(a) (sizeof(a) / sizeof((a)[0]))

/* Where Gmsh 4.8's lexer (Parser/Gmsh.l, checked against Debian's gmsh 4.8.4) ends a token:
 *  - blanks are space, \t, \n, \r and \f (\v is a character token of its own);
 *  - comments run from // to the end of the line and from / * to * /; strings from " to " or
 *    ' to ', without escapes; every one of them also ends at a NUL byte, after which Gmsh reads
 *    the rest as script text, and a string is cut after 1023 characters (its 1024th is dropped
 *    and the rest, up to the closing quote, is read as script text);
 *  - names [A-Za-z_][A-Za-z0-9_]*, numbers, and the operators of two or three characters.
 * The check refuses NUL bytes and strings longer than GMSH_STRING_MAX (Refusals below), so that
 * what it reads as a string or a comment is one for Gmsh too. */
#define GMSH_STRING_MAX 1023

static PetscBool IsNameStart(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }

static PetscBool IsDigit(char c) { return c >= '0' && c <= '9'; }

typedef enum { TOK_COMMENT = TOK_PUNCT + 1 } TokExtra;

typedef struct {
  const char *p, *end;
  int         line;
} Lex;

/* The next token of the text (comments included, as TOK_COMMENT); PETSC_FALSE at the end, or
 * at an unterminated comment or string: Gmsh stops there too (with an error), so nothing after
 * it runs. */
static PetscBool LexNext(Lex *lx, Tok *t)
{
  static const char *const two[] = {"::", "||", "&&", "++", "--", "==", "!=", "<=", ">=", ">>", "<<", "+=", "-=", "*=", "/="};
  const char              *p = lx->p, *end = lx->end;

  while (p < end) {
    const char c = *p;

    if (c == '\n') {
      lx->line++;
      p++;
      continue;
    }
    if (c == ' ' || c == '\t' || c == '\r' || c == '\f') {
      p++;
      continue;
    }
    t->line = lx->line;
    t->s    = p;
    if (c == '/' && p + 1 < end && (p[1] == '/' || p[1] == '*')) {
      const char *q = p + 2;
      if (p[1] == '/')
        while (q < end && *q != '\n') q++;
      else {
        for (; q + 1 < end && !(q[0] == '*' && q[1] == '/'); q++)
          if (*q == '\n') lx->line++;
        if (q + 1 >= end) break;
        q += 2;
      }
      t->type = (TokType)TOK_COMMENT;
      t->len  = (size_t)(q - p);
      lx->p   = q;
      return PETSC_TRUE;
    }
    if (c == '"' || c == '\'') {
      const char *q = p + 1;
      while (q < end && *q != c) {
        if (*q == '\n') lx->line++;
        q++;
      }
      if (q >= end) break;
      t->type = TOK_STRING;
      t->s    = p + 1;
      t->len  = (size_t)(q - p - 1);
      lx->p   = q + 1;
      return PETSC_TRUE;
    }
    if (IsNameStart(c)) {
      const char *q = p + 1;
      while (q < end && (IsNameStart(*q) || IsDigit(*q))) q++;
      t->type = TOK_NAME;
      t->len  = (size_t)(q - p);
    } else if (IsDigit(c) || (c == '.' && p + 1 < end && IsDigit(p[1]))) {
      /* digits, fraction, exponent: so that "2e3" is not read as a name */
      const char *q = p;
      while (q < end && IsDigit(*q)) q++;
      if (q < end && *q == '.') q++;
      while (q < end && IsDigit(*q)) q++;
      if (q < end && (*q == 'e' || *q == 'E')) {
        const char *r = q + 1;
        if (r < end && (*r == '+' || *r == '-')) r++;
        if (r < end && IsDigit(*r)) {
          while (r < end && IsDigit(*r)) r++;
          q = r;
        }
      }
      t->type = TOK_NUMBER;
      t->len  = (size_t)(q - p);
    } else {
      t->type = TOK_PUNCT;
      t->len  = 1;
      if (p + 2 < end && !strncmp(p, "...", 3)) t->len = 3;
      else if (p + 1 < end)
        for (size_t k = 0; k < NELEMS(two); k++)
          if (p[0] == two[k][0] && p[1] == two[k][1]) t->len = 2;
    }
    lx->p = p + t->len;
    return PETSC_TRUE;
  }
  lx->p = end;
  return PETSC_FALSE;
}

/* Gmsh skips the branch of an If that is not taken, an empty For loop and a Macro's body by
 * scanning raw characters for the word that ends it (Parser/Gmsh.l, skip and skipTest): the
 * scan for If branches does not know strings at all, and both lose characters while they
 * compare words (one character after a candidate first letter is never looked at again, so a
 * comment or string start there is missed). Where they stop on one of these words inside what
 * is a string or a comment for this check, Gmsh reads what follows as commands. In a script
 * with such blocks, strings and comments must not hold the words (followed, as Gmsh's scan
 * requires, by anything but a letter or '_'). */
static const char *SkipWord(const char *s, size_t n)
{
  static const char *const words[] = {"EndIf", "ElseIf", "Else", "EndFor", "Return"};

  for (size_t i = 0; i < n; i++) {
    if (s[i] != 'E' && s[i] != 'R') continue;
    for (size_t k = 0; k < NELEMS(words); k++) {
      const size_t l = strlen(words[k]);
      if (i + l <= n && !memcmp(s + i, words[k], l) && (i + l == n || !IsNameStart(s[i + l]))) return words[k];
    }
  }
  return NULL;
}

/* The tokens of a script with a few tokens of look-ahead; comments are left out (after the
 * check above). Memory does not grow with the script (a 50 MB script of punctuation used to
 * take 2.9 GB as a list of tokens). */
#define LOOK 4
typedef struct {
  Lex         lx;
  Tok         q[LOOK]; /* q[0]: the current token, q[1..nq-1]: the next ones */
  int         nq;
  PetscBool   blocks;   /* the script has If, For or Macro blocks (SkipWord) */
  int         bad_line; /* a comment holding a SkipWord: its line */
  const char *bad_word;
} Stream;

static void StreamFill(Stream *st)
{
  while (st->nq < LOOK) {
    Tok *t = &st->q[st->nq];
    if (!LexNext(&st->lx, t)) return;
    if ((int)t->type == TOK_COMMENT) {
      const char *w = st->blocks ? SkipWord(t->s, t->len) : NULL;
      if (w && !st->bad_line) {
        st->bad_line = t->line;
        st->bad_word = w;
      }
      continue;
    }
    st->nq++;
  }
}

static void StreamAdvance(Stream *st)
{
  for (int k = 1; k < st->nq; k++) st->q[k - 1] = st->q[k];
  st->nq--;
  StreamFill(st);
}

static const Tok *Peek(const Stream *st, int k) { return k < st->nq ? &st->q[k] : NULL; }

static PetscBool TokIs(const Tok *t, TokType type, const char *s)
{
  return t && t->type == type && strlen(s) == t->len && !strncmp(t->s, s, t->len) ? PETSC_TRUE : PETSC_FALSE;
}

static PetscBool Is(const Stream *st, int k, TokType type, const char *s) { return TokIs(Peek(st, k), type, s); }

/* The whole file, mapped read-only (no copy: page cache, not fcsim's memory). Only regular
 * files: a FIFO or a device (/dev/zero) behind a script's name would never end. */
static PetscErrorCode MapText(const char *top, const char *path, const char **text, size_t *n)
{
  struct stat st;
  int         fd;
  void       *m;

  PetscFunctionBegin;
  *text = "";
  *n    = 0;
  fd    = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) return FcInputError(top, NULL, "cannot read %s: %s", path, strerror(errno));
  if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
    close(fd);
    return FcInputError(top, NULL, "%s is not a regular file", path);
  }
  if (st.st_size > 0) {
    m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
    if (m == MAP_FAILED) {
      close(fd);
      return FcInputError(top, NULL, "cannot read %s: %s", path, strerror(errno));
    }
    *text = m;
    *n    = (size_t)st.st_size;
  }
  close(fd);
  PetscFunctionReturn(0);
}

/* "line N" in the mesh file itself, "FILE, line N" in a script it includes. */
static void Where(const ScanCtx *ctx, const Script *sc, int line, char *out, size_t len)
{
  if (ctx->depth == 0) snprintf(out, len, "line %d", line);
  else snprintf(out, len, "%s, line %d", sc->name, line);
}

static PetscErrorCode Refuse(const ScanCtx *ctx, const Script *sc, int line, const char *what, const char *why)
{
  char where[PETSC_MAX_PATH_LEN + 32];

  PetscFunctionBegin;
  Where(ctx, sc, line, where, sizeof where);
  return FcInputError(ctx->top, where, "%s is refused: it %s (doc/mesh.md, \"What a .geo may do\")", what, why);
}

static PetscErrorCode ScanNested(ScanCtx *ctx, const char *name, const char *real);

/* Gmsh reads a merged file as data, with a reader of its own, when its extension is a CAD or
 * STL one, or when it is a .msh that starts with $MeshFormat (MSH data); anything else goes
 * to the script parser (a .msh, .pos or .txt holding script text runs as a script). */
static PetscBool IsDataFile(const char *real)
{
  static const char *const cad[] = {".step", ".stp", ".iges", ".igs", ".brep", ".brp", ".stl"};
  const char              *ext   = strrchr(real, '.');

  if (!ext || strchr(ext, '/')) return PETSC_FALSE;
  for (size_t k = 0; k < NELEMS(cad); k++)
    if (!strcasecmp(ext, cad[k])) return PETSC_TRUE;
  if (strcasecmp(ext, ".msh")) return PETSC_FALSE;
  return FcMeshMshHead_Private(real) == 1 ? PETSC_TRUE : PETSC_FALSE;
}

/* The file named by the string token `str` of the command at token `at`: it must exist inside
 * the mesh's folder tree (after resolving .. and symbolic links), be a regular file, and, when
 * Gmsh runs it as a script, pass this check too. */
static PetscErrorCode CheckRead(ScanCtx *ctx, const Script *sc, const Tok *at, const Tok *str, ReadKind kind)
{
  char        lit[PETSC_MAX_PATH_LEN], path[2 * PETSC_MAX_PATH_LEN], why[5 * PETSC_MAX_PATH_LEN], what[64];
  char       *real;
  struct stat st;
  PetscBool   inside;

  PetscFunctionBegin;
  snprintf(what, sizeof what, "%.*s", (int)at->len, at->s);
  if (str->len == 0 || str->len >= sizeof lit) return Refuse(ctx, sc, at->line, what, "names no usable file (empty or too long a name)");
  memcpy(lit, str->s, str->len);
  lit[str->len] = '\0';
  /* Gmsh reads a relative name from the folder of the script that names it. */
  PetscCall(FcPathResolve(sc->name, lit, path, sizeof path));
  real = realpath(path, NULL);
  if (!real) {
    snprintf(why, sizeof why, "reads %s, which cannot be opened: %s", path, strerror(errno));
    return Refuse(ctx, sc, at->line, what, why);
  }
  inside = (ctx->rootlen == 1 || (!strncmp(real, ctx->root, ctx->rootlen) && real[ctx->rootlen] == '/')) ? PETSC_TRUE : PETSC_FALSE;
  if (!inside) {
    if (strcmp(path, real))
      snprintf(
        why, sizeof why, "reads %s (that is, %s), outside the mesh file's folder %s: a case must bring every file its meshes read", path, real, ctx->root);
    else snprintf(why, sizeof why, "reads %s, outside the mesh file's folder %s: a case must bring every file its meshes read", path, ctx->root);
    free(real);
    return Refuse(ctx, sc, at->line, what, why);
  }
  if (stat(real, &st) || !S_ISREG(st.st_mode)) {
    snprintf(why, sizeof why, "reads %s, which is not a regular file", path);
    free(real);
    return Refuse(ctx, sc, at->line, what, why);
  }
  if (kind == READ_SCRIPT || (kind == READ_MERGE && !IsDataFile(real))) {
    PetscErrorCode rc = 0;
    for (int d = 0; d <= ctx->depth && !rc; d++)
      if (!strcmp(ctx->chain[d], real)) {
        snprintf(
          why, sizeof why, "reads %s, which is being read already (it includes itself, directly or through other files): Gmsh would read it forever", path);
        rc = Refuse(ctx, sc, at->line, what, why);
      }
    if (!rc && ctx->depth + 1 > SCRIPT_MAX_DEPTH) {
      snprintf(why, sizeof why, "reads %s, nesting scripts more than %d deep", path, SCRIPT_MAX_DEPTH);
      rc = Refuse(ctx, sc, at->line, what, why);
    }
    if (!rc) rc = ScanNested(ctx, path, real);
    free(real);
    PetscCall(rc);
  } else free(real);
  PetscFunctionReturn(0);
}

static PetscBool IsAssignment(const Tok *t)
{
  static const char *const ops[] = {"=", "+=", "-=", "*=", "/=", "++", "--"};
  for (size_t k = 0; k < NELEMS(ops); k++)
    if (TokIs(t, TOK_PUNCT, ops[k])) return PETSC_TRUE;
  return PETSC_FALSE;
}

/* What the whole text holds before the tokens are checked: a NUL byte, a string too long for
 * Gmsh (both would make Gmsh's tokens differ from this check's), and whether the script has
 * blocks Gmsh skips by scanning characters (SkipWord). */
static PetscErrorCode Precheck(const ScanCtx *ctx, const Script *sc, const char *text, size_t n, PetscBool *blocks)
{
  const char *nul = memchr(text, '\0', n);
  Lex         lx  = {text, text + n, 1};
  Tok         t;

  PetscFunctionBegin;
  *blocks = PETSC_FALSE;
  if (nul) {
    int line = 1;
    for (const char *c = text; c < nul; c++) line += *c == '\n';
    return Refuse(ctx, sc, line, "A NUL byte", "ends a string or a comment early for Gmsh, which then reads what follows as commands");
  }
  while (LexNext(&lx, &t)) {
    if (t.type == TOK_STRING && t.len > GMSH_STRING_MAX) {
      char why[160];
      snprintf(why, sizeof why, "has %zu characters, and Gmsh cuts a string after %d and reads the rest of it as commands", t.len, GMSH_STRING_MAX);
      return Refuse(ctx, sc, t.line, "A string of more than 1023 characters", why);
    }
    if (t.type == TOK_NAME && (TokIs(&t, TOK_NAME, "If") || TokIs(&t, TOK_NAME, "For") || TokIs(&t, TOK_NAME, "Macro") || TokIs(&t, TOK_NAME, "Function")))
      *blocks = PETSC_TRUE;
  }
  PetscFunctionReturn(0);
}

/* A command that reads a file (read_commands: Include, Merge, ...) at token t, named what: its
 * file name must be a plain string literal (fcsim cannot evaluate an expression), then CheckRead. */
static PetscErrorCode CheckReadCommand(ScanCtx *ctx, const Script *sc, Stream *st, const Tok *t, const char *what)
{
  PetscFunctionBegin;
  for (size_t k = 0; k < NELEMS(read_commands); k++) {
    const int  si = read_commands[k].paren ? 2 : 1;
    const Tok *str;
    Tok        at = *t, lit;
    if (strcmp(what, read_commands[k].name)) continue;
    str = Peek(st, si);
    if (!str || str->type != TOK_STRING ||
      (read_commands[k].paren ? !Is(st, 1, TOK_PUNCT, "(") || !Is(st, si + 1, TOK_PUNCT, ")") : !Is(st, si + 1, TOK_PUNCT, ";"))) {
      char why[384];
      snprintf(why, sizeof why, "is not of the form %s%s\"file\"%s with a plain string literal: fcsim must know which file it reads before Gmsh runs", what,
        read_commands[k].paren ? "(" : " ", read_commands[k].paren ? ")" : ";");
      PetscCall(Refuse(ctx, sc, t->line, what, why));
    }
    lit = *str;
    PetscCall(CheckRead(ctx, sc, &at, &lit, read_commands[k].kind));
  }
  PetscFunctionReturn(0);
}

/* Open constructs whose end decides: Printf(...) followed by > or >>, General[...].X = ... */
#define OPEN_MAX 64

static PetscErrorCode CheckTokens(ScanCtx *ctx, const Script *sc, const char *text, size_t n, PetscBool blocks)
{
  Stream    st;
  char      what[160];
  PetscBool member = PETSC_FALSE; /* the previous token was '.' */
  int       parens = 0, brackets = 0, nprintf = 0, ngeneral = 0;
  int       printf_depth[OPEN_MAX];
  struct {
    int  depth, line;
    char name[8];
  } general[OPEN_MAX];

  PetscFunctionBegin;
  PetscCall(PetscMemzero(&st, sizeof st));
  st.lx.p    = text;
  st.lx.end  = text + n;
  st.lx.line = 1;
  st.blocks  = blocks;
  StreamFill(&st);
  for (; st.nq; StreamAdvance(&st)) {
    const Tok *t          = &st.q[0];
    PetscBool  was_member = member;

    if (st.bad_line) {
      char why[200];
      snprintf(why, sizeof why, "holds the word %s, where Gmsh's scan of a skipped If, For or Macro block may stop and read the rest as commands", st.bad_word);
      PetscCall(Refuse(ctx, sc, st.bad_line, "A comment", why));
    }
    member = TokIs(t, TOK_PUNCT, ".");
    if (t->type == TOK_STRING) {
      const char *w = blocks ? SkipWord(t->s, t->len) : NULL;
      if (w) {
        char why[200];
        snprintf(why, sizeof why,
          "holds the word %s, where Gmsh's scan of a skipped If, For or Macro block (which does not know strings) stops and reads the rest as commands", w);
        PetscCall(Refuse(ctx, sc, t->line, "A string", why));
      }
      continue;
    }
    if (t->type == TOK_PUNCT) {
      if (TokIs(t, TOK_PUNCT, "(")) parens++;
      else if (TokIs(t, TOK_PUNCT, "[")) brackets++;
      else if (TokIs(t, TOK_PUNCT, ")")) {
        parens--;
        /* Printf("...") prints (nowhere: Gmsh's terminal output is off); Printf("...") > "f"
         * and >> "f" write or append to a file */
        if (nprintf && printf_depth[nprintf - 1] == parens) {
          nprintf--;
          if (Is(&st, 1, TOK_PUNCT, ">") || Is(&st, 1, TOK_PUNCT, ">>")) PetscCall(Refuse(ctx, sc, t->line, "Printf(...) > FILE", "writes to a file"));
        }
      } else if (TokIs(t, TOK_PUNCT, "]")) {
        brackets--;
        if (ngeneral && general[ngeneral - 1].depth == brackets) {
          ngeneral--;
          if (Is(&st, 1, TOK_PUNCT, ".") && Peek(&st, 2) && Peek(&st, 2)->type == TOK_NAME && IsAssignment(Peek(&st, 3))) {
            const Tok *o = Peek(&st, 2);
            snprintf(what, sizeof what, "%s.%.*s = ...", general[ngeneral].name, (int)PetscMin(o->len, 64), o->s);
            PetscCall(Refuse(ctx, sc, general[ngeneral].line, what,
              general[ngeneral].name[0] == 'G'
                ? "sets a Gmsh General option, and those (terminal, verbosity, error handling, file names, editor commands) are fcsim's"
                : "sets a Gmsh Solver option (programs Gmsh would launch)"));
          }
        }
      }
      continue;
    }
    if (t->type != TOK_NAME) continue;
    /* after '.', a name is an option or a structure member (Mesh.SaveAll), not a command */
    snprintf(what, sizeof what, "%.*s", (int)PetscMin(t->len, 64), t->s);
    for (size_t k = 0; k < NELEMS(refused_names); k++) {
      if (!TokIs(t, TOK_NAME, refused_names[k].name)) continue;
      if (was_member && strcmp(what, "S2N") && strcmp(what, "StringToName")) continue;
      /* Print.Width = ... sets an option of the Print command, which is refused itself */
      if (!strcmp(what, "Print") && Is(&st, 1, TOK_PUNCT, ".")) continue;
      PetscCall(Refuse(ctx, sc, t->line, what, refused_names[k].why));
    }
    if (was_member) continue;
    if (!strcmp(what, "Printf")) {
      if (Is(&st, 1, TOK_PUNCT, "(")) {
        if (nprintf == OPEN_MAX) PetscCall(Refuse(ctx, sc, t->line, "Printf", "is nested more than 64 deep"));
        printf_depth[nprintf++] = parens;
      }
    } else if (!strcmp(what, "Delete") && Is(&st, 1, TOK_NAME, "Options")) {
      PetscCall(Refuse(ctx, sc, t->line, "Delete Options", "resets every Gmsh option, including those fcsim sets to read meshes (error reporting, verbosity)"));
    } else if (!strcmp(what, "General") || !strcmp(what, "Solver")) {
      /* General.Opt = v, General[0].Opt = v: Gmsh's own settings (terminal, verbosity, error
       * handling, file names, editor commands) and the programs its solver module launches */
      if (Is(&st, 1, TOK_PUNCT, "[")) {
        if (ngeneral == OPEN_MAX) PetscCall(Refuse(ctx, sc, t->line, what, "is nested more than 64 deep"));
        general[ngeneral].depth = brackets;
        general[ngeneral].line  = t->line;
        snprintf(general[ngeneral].name, sizeof general[ngeneral].name, "%.7s", what);
        ngeneral++;
      } else if (Is(&st, 1, TOK_PUNCT, ".") && Peek(&st, 2) && Peek(&st, 2)->type == TOK_NAME && IsAssignment(Peek(&st, 3))) {
        const Tok *o = Peek(&st, 2);
        char       w2[256];
        snprintf(w2, sizeof w2, "%.16s.%.*s = ...", what, (int)PetscMin(o->len, 64), o->s);
        PetscCall(Refuse(ctx, sc, t->line, w2,
          what[0] == 'G' ? "sets a Gmsh General option, and those (terminal, verbosity, error handling, file names, editor commands) are fcsim's"
                         : "sets a Gmsh Solver option (programs Gmsh would launch)"));
      }
    } else PetscCall(CheckReadCommand(ctx, sc, &st, t, what));
  }
  PetscFunctionReturn(0);
}

/* Check the script `name` (as Gmsh opens it), whose real path is `real`, and what it reads. */
static PetscErrorCode ScanFile(ScanCtx *ctx, const char *name, const char *real)
{
  const char    *text = NULL;
  size_t         n    = 0;
  Script         sc   = {name};
  PetscBool      blocks;
  PetscErrorCode rc;

  PetscFunctionBegin;
  for (PetscInt k = 0; k < ctx->ndone; k++)
    if (!strcmp(ctx->done[k], real)) PetscFunctionReturn(0); /* included twice: checked once */
  if (ctx->depth > 0) ctx->chain[ctx->depth] = real;
  PetscCall(MapText(ctx->top, real, &text, &n));
  rc = Precheck(ctx, &sc, text, n, &blocks);
  if (!rc) rc = CheckTokens(ctx, &sc, text, n, blocks);
  if (n) munmap((void *)text, n);
  PetscCall(rc);
  if (ctx->ndone == ctx->capdone) {
    char **b;
    ctx->capdone = ctx->capdone ? 2 * ctx->capdone : 16;
    PetscCall(PetscMalloc1(ctx->capdone, &b));
    if (ctx->ndone) PetscCall(PetscArraycpy(b, ctx->done, ctx->ndone));
    PetscCall(PetscFree(ctx->done));
    ctx->done = b;
  }
  PetscCall(PetscStrallocpy(real, &ctx->done[ctx->ndone]));
  ctx->ndone++;
  PetscFunctionReturn(0);
}

/* Depth bookkeeping around ScanFile for nested scripts (ScanFile itself records the chain). */
static PetscErrorCode ScanNested(ScanCtx *ctx, const char *name, const char *real)
{
  PetscErrorCode rc;

  PetscFunctionBegin;
  ctx->depth++;
  rc = ScanFile(ctx, name, real);
  ctx->depth--;
  PetscCall(rc);
  PetscFunctionReturn(0);
}

PetscErrorCode FcMeshScriptRoot_Private(const char *file, char *root, size_t len)
{
  char dir[PETSC_MAX_PATH_LEN], *rootreal, *slash;

  PetscFunctionBegin;
  if (strlen(file) >= sizeof dir) return FcInputError(file, NULL, "mesh file name too long");
  /* The tree is the folder the case names the file in: Gmsh resolves the script's relative
   * names from there too (even when the file itself is a symbolic link). */
  snprintf(dir, sizeof dir, "%s", file);
  slash = strrchr(dir, '/');
  if (!slash) snprintf(dir, sizeof dir, ".");
  else if (slash == dir) dir[1] = '\0';
  else *slash = '\0';
  rootreal = realpath(dir, NULL);
  if (!rootreal || strlen(rootreal) >= len) {
    PetscErrorCode rc = FcInputError(file, NULL, "cannot read mesh file: %s", rootreal ? "name too long" : strerror(errno));
    free(rootreal);
    return rc;
  }
  snprintf(root, len, "%s", rootreal);
  free(rootreal);
  PetscFunctionReturn(0);
}

PetscErrorCode FcMeshCheckScript_Private(const char *file)
{
  ScanCtx        ctx;
  char          *real;
  PetscErrorCode rc;

  PetscFunctionBegin;
  PetscCall(PetscMemzero(&ctx, sizeof ctx));
  ctx.top = file;
  PetscCall(FcMeshScriptRoot_Private(file, ctx.root, sizeof ctx.root));
  real = realpath(file, NULL);
  if (!real) return FcInputError(file, NULL, "cannot read mesh file: %s", strerror(errno));
  ctx.rootlen  = strlen(ctx.root);
  ctx.chain[0] = real;
  rc           = ScanFile(&ctx, file, real);
  free(real);
  for (PetscInt k = 0; k < ctx.ndone; k++) PetscCall(PetscFree(ctx.done[k]));
  PetscCall(PetscFree(ctx.done));
  PetscCall(rc);
  PetscFunctionReturn(0);
}
