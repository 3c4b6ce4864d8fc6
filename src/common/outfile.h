/* The outputs of the offline tools: written under a temporary name beside
 * their final one, and given that name only when the whole run succeeded.
 *
 * A run that fails (an input that is not a trace, a full disk, a tool
 * killed by SIGINT/SIGTERM/SIGHUP) leaves every existing output as it was
 * and no partial file: rtg_out_commit renames every pending output at the
 * end of a successful run, rtg_out_discard (also at exit) removes the
 * temporary ones; on those signals the temporary files go, temporary
 * directories (".NAME.rtg-XXXXXX") stay.
 *
 * A file output is a new file ".NAME.rtg-XXXXXX" in the directory of NAME
 * (through a symbolic link: beside its target), with the mode NAME has, or
 * 0666 less the umask.  A path that renaming cannot replace (a device such
 * as /dev/null or /dev/full, a pipe) is written directly, and so is an
 * existing file the user may write in a directory they may not write (no
 * temporary file can be made there: it is emptied and rewritten).  A directory
 * output (--stats, --csv, --otf2) is a temporary directory whose entries
 * move into the final one at the commit (made when missing): an entry of
 * the same name there is replaced, other files stay. */
#ifndef RTG_OUTFILE_H
#define RTG_OUTFILE_H

#include <stdbool.h>
#include <stdio.h>

/* The path to write output path to (a pending temporary file, already
 * created, or path itself, see above); NULL with errno set when it cannot
 * be created.  The string lives until the commit or discard. */
const char *rtg_out_path(const char *path);

/* rtg_out_path, opened for writing (and for reading where the writer reads
 * back what it wrote); NULL with errno set. */
FILE *rtg_out_open(const char *path);

/* Flush and close; false when any write failed (rtg_out_why says why). */
bool rtg_out_close(FILE *f);

/* A directory output: the temporary directory to make its files in, whose
 * entries go to path at the commit.  before, when not NULL, is called
 * then with path first (to remove what the new entries replace as a
 * whole).  NULL with errno set (ENOTDIR: path is another kind of file). */
const char *rtg_out_dir(const char *path, void (*before)(const char *path));

/* Every pending output takes its final name; false after saying which
 * could not (the others still do). */
bool rtg_out_commit(void);

/* Removes every pending temporary output. */
void rtg_out_discard(void);

/* A write of an output failed with err (any thread): the first such error
 * is what rtg_out_why tells. */
void rtg_out_note_error(int err);

/* Why writing an output failed: strerror of the first error noted, else of
 * errno, else "write error". */
const char *rtg_out_why(void);

#endif
