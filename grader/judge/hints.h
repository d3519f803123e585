// grader/judge/hints.h — the hint registry: every hint key a report can
// carry, with what it names, the detector that gives it, and where the lab's
// handout explains it. The report prints each hint once, with the cases it
// applies to; tools and the kit's mutant tests match on the keys.
#ifndef STENCIL_HINTS_H
#define STENCIL_HINTS_H

typedef struct hint_entry {
    const char *key;            // stable name, e.g. "tile-edges"
    const char *title;          // what it names, a few words
    const char *detector;       // what finds it: the verdict's pattern, the runner's exit, a sanitizer
} hint_entry;

// The registry entry of key, or NULL if key is not registered.
const hint_entry *hint_find(const char *key);

// Every entry, ending with one whose key is NULL.
const hint_entry *hint_all(void);

// Where a lab's handout explains the hints ("handouts/NN-name.md", section
// "Hints you may meet in this lab"), written into buf for lab_name.
const char *hint_handout(const char *lab_name, char *buf, unsigned long len);

#endif // STENCIL_HINTS_H
