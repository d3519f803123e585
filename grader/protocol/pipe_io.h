// grader/protocol/pipe_io.h — whole reads and writes over a pipe, for every
// side of one: the judge and the executor (the serve requests), the executor
// and the student's program (wire.h's messages). Interrupted calls are
// retried; a short count goes on where it stopped.
#ifndef STENCIL_PIPE_IO_H
#define STENCIL_PIPE_IO_H

#include <errno.h>
#include <stddef.h>
#include <unistd.h>

// Moves len bytes between fd and at: writes them when writing, else reads
// them. Returns 0, or -1 at the end of input, when the reader is gone, or on
// an error.
static inline int pipe_move_all(int fd, char *at, size_t len, int writing)
{
    while (len > 0) {
        ssize_t n = writing ? write(fd, at, len) : read(fd, at, len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return -1;
        at += n;
        len -= (size_t)n;
    }
    return 0;
}

// Reads exactly len bytes from fd into buf. Returns 0, or -1 at the end of
// input or on an error (what was read by then is in buf).
static inline int pipe_read_all(int fd, void *buf, size_t len)
{
    return pipe_move_all(fd, (char *)buf, len, 0);
}

// Writes all len bytes of buf to fd (buf is only read). Returns 0, or -1
// when the reader is gone or on an error.
static inline int pipe_write_all(int fd, const void *buf, size_t len)
{
    return pipe_move_all(fd, (char *)buf, len, 1);
}

#endif // STENCIL_PIPE_IO_H
