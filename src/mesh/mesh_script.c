/* fcsim — what a .geo script may do: describe geometry and meshing, nothing else.
 *
 * A .geo file is a Gmsh script, run by Gmsh's parser when the mesh is loaded. Gmsh's language
 * can run shell commands (SystemCall), end the process (Exit: fcsim would stop with exit
 * status 0 and print nothing), write files (Save, Print, Printf > file, CreateDir) and read
 * any file (Include, Merge). A case shared by a colleague must do none of that, and libgmsh 4.8
 * has no option that turns these commands off. So the text of the script — and, recursively,
 * of every script it includes or merges — is checked here, before Gmsh opens anything; the
 * rules are listed in doc/mesh.md ("What a .geo may do").
 *
 * The check works on Gmsh's own tokens (its lexer: comments // and / * ... * /, strings "..."
 * and '...' without escapes, names [A-Za-z_][A-Za-z0-9_]*), so words in comments and strings
 * are ignored, and spacing cannot hide a name. Command names are plain names in Gmsh's
 * grammar; the one way to build a name at run time, S2N/StringToName, is refused for that
 * reason (S2N["SystemCall"] "..." runs the command in Gmsh 4.8). */
#define _XOPEN_SOURCE 700 /* realpath */
#include "mesh_impl.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

/* Include chains deeper than this are refused (Gmsh itself recurses without a limit). */
#define SCRIPT_MAX_DEPTH 16

typedef enum {
  TOK_NAME,
  TOK_STRING,
  TOK_NUMBER,
  TOK_PUNCT
} TokType;

typedef struct {
  TokType     type;
  int         line;
  const char *s; /* into the script's text; a string's content without its quotes */
  size_t      len;
} Tok;

typedef struct {
  const char *top;                     /* the mesh file as given: every message starts with it */
  char        root[PETSC_MAX_PATH_LEN]; /* real path of the folder it is named in: every file
                                          read must be below it */
  size_t      rootlen;
  char      **done;                     /* real paths of the scripts checked so far */
  PetscInt    ndone, capdone;
  const char *chain[SCRIPT_MAX_DEPTH + 1]; /* real paths of the scripts being checked (nesting) */
  int         depth;
} ScanCtx;

/* One script being checked: its name as Gmsh opens it, for messages and relative paths. */
typedef struct {
  const char *name;
  Tok        *tok;
  size_t      ntok;
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
  {"Include",              READ_SCRIPT, PETSC_FALSE},
  {"Merge",                READ_MERGE,  PETSC_FALSE},
  {"MergeWithBoundingBox", READ_MERGE,  PETSC_FALSE},
  {"ShapeFromFile",        READ_DATA,   PETSC_TRUE },
  {"ListFromFile",         READ_DATA,   PETSC_TRUE },
};

#define NELEMS(a) (sizeof(a) / sizeof((a)[0]))

static PetscBool TokIs(const Script *sc, size_t i, TokType type, const char *s)
{
  return i < sc->ntok && sc->tok[i].type == type && strlen(s) == sc->tok[i].len && !strncmp(sc->tok[i].s, s, sc->tok[i].len) ? PETSC_TRUE : PETSC_FALSE;
}

static PetscErrorCode Push(Tok **tok, size_t *n, size_t *cap, Tok t)
{
  PetscFunctionBegin;
  if (*n == *cap) {
    Tok *b;
    *cap = *cap ? 2 * *cap : 1024;
    PetscCall(PetscMalloc1(*cap, &b));
    if (*n) PetscCall(PetscArraycpy(b, *tok, *n));
    PetscCall(PetscFree(*tok));
    *tok = b;
  }
  (*tok)[(*n)++] = t;
  PetscFunctionReturn(0);
}

static PetscBool IsNameStart(char c)
{
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static PetscBool IsDigit(char c)
{
  return c >= '0' && c <= '9';
}

/* Gmsh's tokens of text[0..n). An unterminated comment or string ends the list: Gmsh stops
 * there too (with an error), so nothing after it runs. */
static PetscErrorCode Tokenize(const char *text, size_t n, Tok **tok, size_t *ntok)
{
  static const char *const two[] = {"::", "||", "&&", "++", "--", "==", "!=", "<=", ">=", ">>", "<<", "+=", "-=", "*=", "/="};
  const char *p = text, *end = text + n;
  size_t      cap = 0;
  int         line = 1;

  PetscFunctionBegin;
  *tok  = NULL;
  *ntok = 0;
  while (p < end) {
    const char c = *p;
    Tok        t;

    if (c == '\n') {
      line++;
      p++;
      continue;
    }
    if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
      p++;
      continue;
    }
    if (c == '/' && p + 1 < end && p[1] == '/') {
      while (p < end && *p != '\n') p++;
      continue;
    }
    if (c == '/' && p + 1 < end && p[1] == '*') {
      const char *q = p + 2;
      for (; q + 1 < end && !(q[0] == '*' && q[1] == '/'); q++)
        if (*q == '\n') line++;
      if (q + 1 >= end) break;
      p = q + 2;
      continue;
    }
    t.line = line;
    if (c == '"' || c == '\'') {
      const char *q = p + 1;
      while (q < end && *q != c) {
        if (*q == '\n') line++;
        q++;
      }
      if (q >= end) break;
      t.type = TOK_STRING;
      t.s    = p + 1;
      t.len  = (size_t)(q - p - 1);
      p      = q + 1;
    } else if (IsNameStart(c)) {
      const char *q = p + 1;
      while (q < end && (IsNameStart(*q) || IsDigit(*q))) q++;
      t.type = TOK_NAME;
      t.s    = p;
      t.len  = (size_t)(q - p);
      p      = q;
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
      t.type = TOK_NUMBER;
      t.s    = p;
      t.len  = (size_t)(q - p);
      p      = q;
    } else {
      t.type = TOK_PUNCT;
      t.s    = p;
      t.len  = 1;
      if (p + 2 < end && !strncmp(p, "...", 3)) t.len = 3;
      else if (p + 1 < end)
        for (size_t k = 0; k < NELEMS(two); k++)
          if (p[0] == two[k][0] && p[1] == two[k][1]) t.len = 2;
      p += t.len;
    }
    PetscCall(Push(tok, ntok, &cap, t));
  }
  PetscFunctionReturn(0);
}

/* The whole file into a NUL-terminated buffer (PETSc memory). Only regular files: a FIFO or
 * a device (/dev/zero) behind a script's name would never end. */
static PetscErrorCode ReadText(const char *top, const char *path, char **text, size_t *n)
{
  struct stat    st;
  FILE          *fp;
  PetscErrorCode rc;

  PetscFunctionBegin;
  *text = NULL;
  *n    = 0;
  if (stat(path, &st) || !S_ISREG(st.st_mode)) return FcInputError(top, NULL, "%s is not a regular file", path);
  fp = fopen(path, "rb");
  if (!fp) return FcInputError(top, NULL, "cannot read %s: %s", path, strerror(errno));
  rc = PetscMalloc1((size_t)st.st_size + 1, text);
  if (!rc) {
    *n          = fread(*text, 1, (size_t)st.st_size, fp);
    (*text)[*n] = '\0';
  }
  fclose(fp);
  PetscCall(rc);
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
    if (strcmp(path, real)) snprintf(why, sizeof why, "reads %s (that is, %s), outside the mesh file's folder %s: a case must bring every file its meshes read", path, real, ctx->root);
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
        snprintf(why, sizeof why, "reads %s, which is being read already (it includes itself, directly or through other files): Gmsh would read it forever", path);
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

/* The token after the matching ')' of the '(' at index i (ntok if unmatched). */
static size_t AfterParens(const Script *sc, size_t i)
{
  int depth = 0;
  for (; i < sc->ntok; i++) {
    if (TokIs(sc, i, TOK_PUNCT, "(")) depth++;
    else if (TokIs(sc, i, TOK_PUNCT, ")") && --depth == 0) return i + 1;
  }
  return sc->ntok;
}

static PetscBool IsAssignment(const Script *sc, size_t i)
{
  static const char *const ops[] = {"=", "+=", "-=", "*=", "/=", "++", "--"};
  for (size_t k = 0; k < NELEMS(ops); k++)
    if (TokIs(sc, i, TOK_PUNCT, ops[k])) return PETSC_TRUE;
  return PETSC_FALSE;
}

static PetscErrorCode CheckTokens(ScanCtx *ctx, const Script *sc)
{
  char what[160];

  PetscFunctionBegin;
  for (size_t i = 0; i < sc->ntok; i++) {
    const Tok *t = &sc->tok[i];
    PetscBool  member;

    if (t->type != TOK_NAME) continue;
    /* after '.', a name is an option or a structure member (Mesh.SaveAll), not a command */
    member = i > 0 && TokIs(sc, i - 1, TOK_PUNCT, ".") ? PETSC_TRUE : PETSC_FALSE;
    snprintf(what, sizeof what, "%.*s", (int)PetscMin(t->len, 64), t->s);
    for (size_t k = 0; k < NELEMS(refused_names); k++) {
      if (!TokIs(sc, i, TOK_NAME, refused_names[k].name)) continue;
      if (member && strcmp(what, "S2N") && strcmp(what, "StringToName")) continue;
      /* Print.Width = ... sets an option of the Print command, which is refused itself */
      if (!strcmp(what, "Print") && TokIs(sc, i + 1, TOK_PUNCT, ".")) continue;
      PetscCall(Refuse(ctx, sc, t->line, what, refused_names[k].why));
    }
    if (member) continue;
    if (!strcmp(what, "Printf")) {
      /* Printf("...") prints (nowhere: Gmsh's terminal output is off); Printf("...") > "f"
       * and >> "f" write or append to a file */
      const size_t j = TokIs(sc, i + 1, TOK_PUNCT, "(") ? AfterParens(sc, i + 1) : sc->ntok;
      if (TokIs(sc, j, TOK_PUNCT, ">") || TokIs(sc, j, TOK_PUNCT, ">>")) PetscCall(Refuse(ctx, sc, t->line, "Printf(...) > FILE", "writes to a file"));
    } else if (!strcmp(what, "Delete") && TokIs(sc, i + 1, TOK_NAME, "Options")) {
      PetscCall(Refuse(ctx, sc, t->line, "Delete Options", "resets every Gmsh option, including those fcsim sets to read meshes (error reporting, verbosity)"));
    } else if (!strcmp(what, "General") || !strcmp(what, "Solver")) {
      /* General.Opt = v, General[0].Opt = v: Gmsh's own settings (terminal, verbosity, error
       * handling, file names, editor commands) and the programs its solver module launches */
      size_t j = i + 1;
      if (TokIs(sc, j, TOK_PUNCT, "[")) {
        while (j < sc->ntok && !TokIs(sc, j, TOK_PUNCT, "]")) j++;
        j++;
      }
      if (TokIs(sc, j, TOK_PUNCT, ".") && j + 1 < sc->ntok && sc->tok[j + 1].type == TOK_NAME && IsAssignment(sc, j + 2)) {
        const Tok *o = &sc->tok[j + 1];
        snprintf(what, sizeof what, "%.*s.%.*s = ...", (int)PetscMin(t->len, 16), t->s, (int)PetscMin(o->len, 64), o->s);
        PetscCall(Refuse(ctx, sc, t->line, what, t->s[0] == 'G' ? "sets a Gmsh General option, and those (terminal, verbosity, error handling, file names, editor commands) are fcsim's" : "sets a Gmsh Solver option (programs Gmsh would launch)"));
      }
    } else {
      for (size_t k = 0; k < NELEMS(read_commands); k++) {
        size_t s;
        if (strcmp(what, read_commands[k].name)) continue;
        /* the file name must be a plain string literal: fcsim cannot evaluate an expression */
        s = read_commands[k].paren ? i + 2 : i + 1;
        if (s >= sc->ntok || sc->tok[s].type != TOK_STRING || (read_commands[k].paren ? !TokIs(sc, i + 1, TOK_PUNCT, "(") || !TokIs(sc, s + 1, TOK_PUNCT, ")") : !TokIs(sc, s + 1, TOK_PUNCT, ";"))) {
          char why[384];
          snprintf(why, sizeof why, "is not of the form %s%s\"file\"%s with a plain string literal: fcsim must know which file it reads before Gmsh runs", what, read_commands[k].paren ? "(" : " ", read_commands[k].paren ? ")" : ";");
          PetscCall(Refuse(ctx, sc, t->line, what, why));
        }
        PetscCall(CheckRead(ctx, sc, t, &sc->tok[s], read_commands[k].kind));
      }
    }
  }
  PetscFunctionReturn(0);
}

/* Check the script `name` (as Gmsh opens it), whose real path is `real`, and what it reads. */
static PetscErrorCode ScanFile(ScanCtx *ctx, const char *name, const char *real)
{
  char          *text = NULL;
  size_t         n    = 0;
  Script         sc   = {name, NULL, 0};
  PetscErrorCode rc;

  PetscFunctionBegin;
  for (PetscInt k = 0; k < ctx->ndone; k++)
    if (!strcmp(ctx->done[k], real)) PetscFunctionReturn(0); /* included twice: checked once */
  if (ctx->depth > 0) ctx->chain[ctx->depth] = real;
  PetscCall(ReadText(ctx->top, real, &text, &n));
  rc = Tokenize(text, n, &sc.tok, &sc.ntok);
  if (!rc) rc = CheckTokens(ctx, &sc);
  PetscCall(PetscFree(sc.tok));
  PetscCall(PetscFree(text));
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
  char  dir[PETSC_MAX_PATH_LEN], *rootreal, *slash;

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
