// An emulated NVRTC 12.6 (libnvrtc.so.12), for the runtime's fallback that compiles a generated .cu
// at run time when its class has no PTX or the driver refuses the PTX (ModuleLoader, Nvrtc). It
// compiles for real: the program's source and headers go to a temporary directory and
// $KILN_CUDA_EMULATION_NVCC compiles them to PTX with the options the runtime gave, so wrong options
// or a missing header fail here as they would in NVRTC, with nvcc's messages as the program log. The
// PTX then claims ISA 8.5 (what NVRTC 12.6 writes) and carries a comment with the source's 64-bit
// FNV-1a hash, by which the emulated driver finds the host build of the same source.
#define _GNU_SOURCE
#include <fcntl.h>
#include <spawn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

typedef int nvrtcResult;

enum {
  NVRTC_SUCCESS = 0,
  NVRTC_ERROR_OUT_OF_MEMORY = 1,
  NVRTC_ERROR_PROGRAM_CREATION_FAILURE = 2,
  NVRTC_ERROR_INVALID_INPUT = 3,
  NVRTC_ERROR_INVALID_PROGRAM = 4,
  NVRTC_ERROR_COMPILATION = 6,
  NVRTC_ERROR_INTERNAL_ERROR = 11,
};

struct program {
  char* source;
  int headers;
  char** header_sources;
  char** header_names;
  char* ptx;
  char* log;
};

typedef struct program* nvrtcProgram;

// Those that both NVRTC 12.6 and the nvcc behind this emulation (CUDA 13) compile for.
static const int ARCHS[] = {75, 80, 86, 87, 89, 90};

const char* nvrtcGetErrorString(nvrtcResult result) {
  switch (result) {
    case NVRTC_SUCCESS: return "NVRTC_SUCCESS";
    case NVRTC_ERROR_OUT_OF_MEMORY: return "NVRTC_ERROR_OUT_OF_MEMORY";
    case NVRTC_ERROR_INVALID_INPUT: return "NVRTC_ERROR_INVALID_INPUT";
    case NVRTC_ERROR_INVALID_PROGRAM: return "NVRTC_ERROR_INVALID_PROGRAM";
    case NVRTC_ERROR_COMPILATION: return "NVRTC_ERROR_COMPILATION";
    default: return "NVRTC_ERROR_INTERNAL_ERROR";
  }
}

nvrtcResult nvrtcVersion(int* major, int* minor) {
  *major = 12;
  *minor = 6;
  return NVRTC_SUCCESS;
}

nvrtcResult nvrtcGetNumSupportedArchs(int* count) {
  *count = (int) (sizeof ARCHS / sizeof ARCHS[0]);
  return NVRTC_SUCCESS;
}

nvrtcResult nvrtcGetSupportedArchs(int* archs) {
  memcpy(archs, ARCHS, sizeof ARCHS);
  return NVRTC_SUCCESS;
}

nvrtcResult nvrtcCreateProgram(nvrtcProgram* result, const char* source, const char* name, int headers,
    const char* const* header_sources, const char* const* header_names) {
  (void) name;
  if (result == NULL || source == NULL || headers < 0) return NVRTC_ERROR_INVALID_INPUT;
  struct program* p = calloc(1, sizeof *p);
  p->source = strdup(source);
  p->headers = headers;
  p->header_sources = calloc((size_t) headers + 1, sizeof(char*));
  p->header_names = calloc((size_t) headers + 1, sizeof(char*));
  for (int i = 0; i < headers; i++) {
    p->header_sources[i] = strdup(header_sources[i]);
    p->header_names[i] = strdup(header_names[i]);
  }
  *result = p;
  return NVRTC_SUCCESS;
}

nvrtcResult nvrtcDestroyProgram(nvrtcProgram* program) {
  if (program == NULL || *program == NULL) return NVRTC_ERROR_INVALID_PROGRAM;
  struct program* p = *program;
  for (int i = 0; i < p->headers; i++) {
    free(p->header_sources[i]);
    free(p->header_names[i]);
  }
  free(p->header_sources);
  free(p->header_names);
  free(p->source);
  free(p->ptx);
  free(p->log);
  free(p);
  *program = NULL;
  return NVRTC_SUCCESS;
}

static int write_file(const char* path, const char* text) {
  char dir[4096];
  snprintf(dir, sizeof dir, "%s", path);
  for (char* c = dir + 1; *c; c++) {
    if (*c == '/') {
      *c = 0;
      mkdir(dir, 0700);
      *c = '/';
    }
  }
  FILE* f = fopen(path, "w");
  if (f == NULL) return -1;
  fputs(text, f);
  return fclose(f);
}

static char* read_file(const char* path) {
  FILE* f = fopen(path, "rb");
  if (f == NULL) return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char* text = malloc((size_t) n + 1);
  size_t got = fread(text, 1, (size_t) n, f);
  text[got] = 0;
  fclose(f);
  return text;
}

static int run(char* const* argv, const char* output) {
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0600);
  posix_spawn_file_actions_adddup2(&actions, 1, 2);
  pid_t pid;
  int status = -1;
  if (posix_spawn(&pid, argv[0], &actions, NULL, argv, environ) == 0) {
    waitpid(pid, &status, 0);
  }
  posix_spawn_file_actions_destroy(&actions);
  return status;
}

// Replaces the ".version X.Y" line with what NVRTC 12.6 writes and appends the source's hash.
static char* as_nvrtc_ptx(const char* ptx, const char* source) {
  uint64_t hash = 0xcbf29ce484222325ull;
  for (const unsigned char* c = (const unsigned char*) source; *c; c++) {
    hash = (hash ^ *c) * 0x100000001b3ull;
  }
  size_t n = strlen(ptx);
  char* out = malloc(n + 128);
  const char* version = strstr(ptx, "\n.version ");
  if (version == NULL) {
    snprintf(out, n + 128, "%s", ptx);
  } else {
    const char* end = strchr(version + 1, '\n');
    size_t head = (size_t) (version - ptx);
    memcpy(out, ptx, head);
    strcpy(out + head, "\n.version 8.5");
    strcat(out, end == NULL ? "" : end);
  }
  char tail[96];
  snprintf(tail, sizeof tail, "\n// kiln-emulation-module: %016llx\n", (unsigned long long) hash);
  strcat(out, tail);
  return out;
}

// NVRTC sees only the headers the program was given (nvcc would also find system and CUDA headers):
// the first #include of `text` that is not among them, or NULL.
static char* unknown_include(const struct program* p, const char* text) {
  static char name[512];
  for (const char* c = strstr(text, "#include"); c != NULL; c = strstr(c + 1, "#include")) {
    const char* open = c + strlen("#include");
    while (*open == ' ' || *open == '\t') open++;
    if (*open != '"' && *open != '<') continue;
    const char* close = strchr(open + 1, *open == '"' ? '"' : '>');
    if (close == NULL || close - open - 1 >= (long) sizeof name) continue;
    memcpy(name, open + 1, (size_t) (close - open - 1));
    name[close - open - 1] = 0;
    int known = 0;
    for (int i = 0; i < p->headers; i++) {
      known |= strcmp(p->header_names[i], name) == 0;
    }
    if (!known) return name;
  }
  return NULL;
}

nvrtcResult nvrtcCompileProgram(nvrtcProgram p, int options, const char* const* option) {
  if (p == NULL) return NVRTC_ERROR_INVALID_PROGRAM;
  const char* missing = unknown_include(p, p->source);
  for (int i = 0; missing == NULL && i < p->headers; i++) {
    missing = unknown_include(p, p->header_sources[i]);
  }
  if (missing != NULL) {
    free(p->log);
    p->log = malloc(strlen(missing) + 64);
    sprintf(p->log, "catastrophic error: cannot open source file \"%s\"", missing);
    return NVRTC_ERROR_COMPILATION;
  }
  const char* nvcc = getenv("KILN_CUDA_EMULATION_NVCC");
  if (nvcc == NULL) {
    p->log = strdup("the emulated NVRTC compiles with nvcc, and KILN_CUDA_EMULATION_NVCC is not set");
    return NVRTC_ERROR_COMPILATION;
  }
  char dir[] = "/tmp/kiln-nvrtc-XXXXXX";
  if (mkdtemp(dir) == NULL) return NVRTC_ERROR_INTERNAL_ERROR;
  char path[4096];
  for (int i = 0; i < p->headers; i++) {
    snprintf(path, sizeof path, "%s/%s", dir, p->header_names[i]);
    write_file(path, p->header_sources[i]);
  }
  char source[4096], ptx[4096], log[4096], include[4200];
  snprintf(source, sizeof source, "%s/program.cu", dir);
  snprintf(ptx, sizeof ptx, "%s/program.ptx", dir);
  snprintf(log, sizeof log, "%s/log.txt", dir);
  snprintf(include, sizeof include, "-I%s", dir);
  write_file(source, p->source);
  char** argv = calloc((size_t) options + 8, sizeof(char*));
  int a = 0;
  argv[a++] = (char*) nvcc;
  argv[a++] = "-ptx";
  argv[a++] = include;
  for (int i = 0; i < options; i++) {
    argv[a++] = (char*) option[i];
  }
  argv[a++] = "-o";
  argv[a++] = ptx;
  argv[a++] = source;
  argv[a] = NULL;
  int status = run(argv, log);
  free(argv);
  free(p->log);
  p->log = read_file(log);
  nvrtcResult result = NVRTC_ERROR_COMPILATION;
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
    char* text = read_file(ptx);
    if (text != NULL) {
      free(p->ptx);
      p->ptx = as_nvrtc_ptx(text, p->source);
      free(text);
      result = NVRTC_SUCCESS;
    }
  }
  char* rm[] = {"/bin/rm", "-rf", dir, NULL};
  run(rm, "/dev/null");
  return result;
}

nvrtcResult nvrtcGetPTXSize(nvrtcProgram p, size_t* size) {
  if (p == NULL || p->ptx == NULL) return NVRTC_ERROR_INVALID_PROGRAM;
  *size = strlen(p->ptx) + 1;
  return NVRTC_SUCCESS;
}

nvrtcResult nvrtcGetPTX(nvrtcProgram p, char* ptx) {
  if (p == NULL || p->ptx == NULL) return NVRTC_ERROR_INVALID_PROGRAM;
  strcpy(ptx, p->ptx);
  return NVRTC_SUCCESS;
}

nvrtcResult nvrtcGetProgramLogSize(nvrtcProgram p, size_t* size) {
  if (p == NULL) return NVRTC_ERROR_INVALID_PROGRAM;
  *size = (p->log == NULL ? 0 : strlen(p->log)) + 1;
  return NVRTC_SUCCESS;
}

nvrtcResult nvrtcGetProgramLog(nvrtcProgram p, char* log) {
  if (p == NULL) return NVRTC_ERROR_INVALID_PROGRAM;
  strcpy(log, p->log == NULL ? "" : p->log);
  return NVRTC_SUCCESS;
}
