/* Output files that may exist already: rewritten in place, then cut to
 * what was written.
 *
 * Opening with truncation ("w") frees an existing file's pages, and on
 * ext4 (auto_da_alloc) makes the close of a file truncated to zero start
 * the writeback of everything written since, which makes rewriting a
 * file take several times as long as writing over its pages.  So a
 * regular file is opened without truncation, written from its start, and
 * cut at close to the length written.  (Until then it holds the old text
 * after the new: an output that is not closed, its writer killed, is not
 * whole either way.)  Other outputs (a pipe, a device) are just opened. */
#ifndef RTG_OUTFILE_H
#define RTG_OUTFILE_H

#include <stdbool.h>
#include <stdio.h>

/* As fopen(path, "wb"), without truncating: NULL with errno set.  The
 * descriptor is open for reading too where the file's mode allows it
 * (fcntl F_GETFL tells). */
FILE *rtg_out_open(const char *path);

/* Flush, cut a regular file where the writing ended (the descriptor's
 * offset: writes may go to fileno(f) too, after a flush), close; false when
 * any of it failed. */
bool rtg_out_close(FILE *f);

#endif
