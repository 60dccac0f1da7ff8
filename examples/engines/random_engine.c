/* A binocle engine in C: a legal random player of every profile.
 *
 * It speaks the binocle engine protocol (version 1), one JSON object per line
 * on standard input and output, with a tiny reader of its own instead of a
 * JSON library: it looks for the message's "type", the game's "seed" and, in a
 * "go" message, the "text" of each entry of "legal" (action texts hold no
 * quotes or backslashes), and answers with one of them.
 *
 *   cc -O2 -o random_engine examples/engines/random_engine.c
 *   binocle arena --profile cutthroat --bots 'cmd:./random_engine,baseline,baseline'
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_LINE (1 << 22)
#define MAX_LEGAL 4096

static char line[MAX_LINE];
static unsigned long long rng = 1;

static unsigned random_below(unsigned n) {
    rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
    return (unsigned)((rng >> 33) % n);
}

/* The text after "key": (spaces skipped), or NULL. */
static const char *value_of(const char *from, const char *key) {
    char pattern[64];
    snprintf(pattern, sizeof pattern, "\"%s\"", key);
    const char *p = strstr(from, pattern);
    if (!p) return NULL;
    p += strlen(pattern);
    while (*p == ' ' || *p == ':') p++;
    return p;
}

static int is_type(const char *type) {
    const char *v = value_of(line, "type");
    size_t n = strlen(type);
    return v && v[0] == '"' && strncmp(v + 1, type, n) == 0 && v[n + 1] == '"';
}

static void answer_go(void) {
    static const char *texts[MAX_LEGAL];
    static int calm[MAX_LEGAL];
    int n = 0, quiet = 0;
    const char *p = value_of(line, "legal");
    while (p && n < MAX_LEGAL && (p = value_of(p, "text")) != NULL && *p == '"') {
        texts[n] = ++p; /* the text runs to the next quote */
        /* Claims and concessions only when nothing else is legal. */
        calm[n] = strncmp(p, "claim", 5) != 0 && strncmp(p, "concede", 7) != 0;
        quiet += calm[n];
        n++;
    }
    if (n == 0) return;
    unsigned pick = random_below((unsigned)(quiet ? quiet : n));
    for (int i = 0; i < n; i++) {
        if (quiet && !calm[i]) continue;
        if (pick-- == 0) {
            int length = (int)(strchr(texts[i], '"') - texts[i]);
            printf("{\"type\":\"action\",\"action\":\"%.*s\"}\n", length, texts[i]);
            break;
        }
    }
}

int main(void) {
    while (fgets(line, sizeof line, stdin)) {
        if (is_type("hello")) {
            printf("{\"type\":\"id\",\"protocol\":\"binocle-engine\",\"version\":1,"
                   "\"name\":\"random.c\",\"author\":\"binocle examples\",\"options\":[]}\n");
        } else if (is_type("isready")) {
            printf("{\"type\":\"readyok\"}\n");
        } else if (is_type("game")) {
            const char *seed = value_of(line, "seed");
            rng = seed ? strtoull(seed, NULL, 10) + 1 : 1;
        } else if (is_type("go")) {
            answer_go();
        } else if (is_type("quit")) {
            break;
        }
        fflush(stdout);
    }
    return 0;
}
