#include <stdio.h>
#include <string.h>

static void count(FILE *f, long *lines, long *words, long *bytes)
{
    int c, inword = 0;
    while ((c = getc(f)) != EOF) {
        (*bytes)++;
        if (c == '\n')
            (*lines)++;
        if (c == ' ' || c == '\n' || c == '\t')
            inword = 0;
        else if (!inword) {
            inword = 1;
            (*words)++;
        }
    }
}

int main(int argc, char **argv)
{
    long l = 0, w = 0, b = 0;
    if (argc < 2) {
        count(stdin, &l, &w, &b);
        printf("%7ld %7ld %7ld\n", l, w, b);
        return 0;
    }
    for (int i = 1; i < argc; i++) {
        FILE *f = fopen(argv[i], "r");
        if (!f) { perror(argv[i]); return 1; }
        count(f, &l, &w, &b);
        fclose(f);
        printf("%7ld %7ld %7ld %s\n", l, w, b, argv[i]);
    }
    return 0;
}
