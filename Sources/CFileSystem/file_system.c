#define _GNU_SOURCE
#include <fcntl.h>
#include <sys/stat.h>
#include <stdio.h>
#include <unistd.h>
#include "file_system.h"

ssize_t notes_copy_file_range(int in, int out, size_t length) {
    return copy_file_range(in, NULL, out, NULL, length, 0);
}

int notes_start_writeback(int fd) {
    return sync_file_range(fd, 0, 0, SYNC_FILE_RANGE_WRITE);
}

int notes_sync_file_system(int fd) {
    return syncfs(fd);
}

int notes_file_identity(const char *path, uint64_t *inode, int64_t *seconds, uint32_t *nanoseconds) {
    struct statx info;
    if (statx(AT_FDCWD, path, AT_SYMLINK_NOFOLLOW, STATX_INO | STATX_BTIME, &info) != 0) return -1;
    *inode = info.stx_ino;
    if (info.stx_mask & STATX_BTIME) {
        *seconds = info.stx_btime.tv_sec;
        *nanoseconds = info.stx_btime.tv_nsec;
        return 1;
    }
    *seconds = 0;
    *nanoseconds = 0;
    return 0;
}

int notes_open_unnamed(int folder, mode_t mode) {
    return openat(folder, ".", O_TMPFILE | O_WRONLY | O_CLOEXEC, mode);
}

int notes_link_unnamed(int fd, int folder, const char *name) {
    char path[64];
    snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
    return linkat(AT_FDCWD, path, folder, name, AT_SYMLINK_FOLLOW);
}
