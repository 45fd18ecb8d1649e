/*
 * Copyright (c) 2026, the rdio JDK authors.
 * Licensed under the GNU General Public License version 2 only.
 */

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

#include "jni.h"
#include "jni_util.h"
#include "jlong.h"
#include "nio.h"
#include "nio_util.h"
#include "sun_nio_ch_UncachedFileDispatcher.h"

/*
 * preadv2 and pwritev2 are called through syscall(2), so that libnio needs
 * no glibc symbol upstream's does not (glibc's wrappers are versioned
 * GLIBC_2.26), and RWF_DONTCACHE (Linux 6.14) is defined here for build
 * machines whose headers predate it.
 */
#ifndef SYS_preadv2
#if defined(__x86_64__)
#define SYS_preadv2  327
#define SYS_pwritev2 328
#elif defined(__aarch64__) || defined(__riscv)
#define SYS_preadv2  286
#define SYS_pwritev2 287
#endif
#endif

#define RDIO_RWF_DONTCACHE 0x00000080

/* The offset as the kernel takes it: low and high halves, each in a long. */
static ssize_t rw2(int write, int fd, const struct iovec *iov, int iovcnt, off_t pos) {
#ifdef SYS_preadv2
    long lo = (long)pos;
    long hi = (long)(((uint64_t)pos >> 16) >> 16);
    return syscall(write ? SYS_pwritev2 : SYS_preadv2, fd, iov, iovcnt,
                   lo, hi, RDIO_RWF_DONTCACHE);
#else
    errno = ENOSYS;
    return -1;
#endif
}

/* Whether a failed call was a refusal of the flag: nothing was transferred. */
static int refused(void) {
    return errno == EOPNOTSUPP || errno == ENOSYS;
}

/* "/proc/self/fd/FD", without stdio, which libnio does not otherwise use. */
static void proc_fd_path(char buf[32], int fd) {
    static const char prefix[] = "/proc/self/fd/";
    char digits[12];
    int i = 0, n = 0;
    do {
        digits[n++] = (char)('0' + fd % 10);
        fd /= 10;
    } while (fd > 0);
    for (; prefix[i] != '\0'; i++)
        buf[i] = prefix[i];
    while (n > 0)
        buf[i++] = digits[--n];
    buf[i] = '\0';
}

JNIEXPORT jint JNICALL
Java_sun_nio_ch_UncachedFileDispatcher_probe0(JNIEnv *env, jclass clazz,
                                              jobject fdo, jboolean readable)
{
    char c, proc[32];
    struct stat st;
    struct iovec iov = { &c, 1 };
    int fd = fdval(env, fdo);
    int rfd = fd;
    ssize_t n;

    if (!readable) {
        /* A write-only descriptor cannot read: ask through a second one,
         * for a regular file only, since opening a device or a FIFO again
         * could change its state. */
        if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))
            return 0;  /* unknown: the first write tells */
        proc_fd_path(proc, fd);
        do {
            rfd = open(proc, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
        } while (rfd == -1 && errno == EINTR);
        if (rfd == -1)
            return 0;  /* unknown: the first write tells */
    }
    /* The kernel checks the flag before the file's size or contents. */
    n = rw2(0, rfd, &iov, 1, 0);
    if (n == -1 && refused()) {
        n = IOS_UNSUPPORTED;
    } else {
        n = 0;
    }
    if (rfd != fd)
        close(rfd);
    return (jint)n;
}

JNIEXPORT jint JNICALL
Java_sun_nio_ch_UncachedFileDispatcher_rw0(JNIEnv *env, jclass clazz, jobject fdo,
                                           jlong address, jint len,
                                           jlong position, jboolean write)
{
    struct iovec iov = { jlong_to_ptr(address), (size_t)len };
    ssize_t n = rw2(write, fdval(env, fdo), &iov, 1, (off_t)position);
    if (n == -1 && refused())
        return IOS_UNSUPPORTED;
    return convertReturnVal(env, (jint)n, write ? JNI_FALSE : JNI_TRUE);
}

JNIEXPORT jlong JNICALL
Java_sun_nio_ch_UncachedFileDispatcher_rwv0(JNIEnv *env, jclass clazz, jobject fdo,
                                            jlong address, jint iovcnt,
                                            jboolean write)
{
    struct iovec *iov = (struct iovec *)jlong_to_ptr(address);
    ssize_t n = rw2(write, fdval(env, fdo), iov, iovcnt, -1);
    if (n == -1 && refused())
        return IOS_UNSUPPORTED;
    return convertLongReturnVal(env, (jlong)n, write ? JNI_FALSE : JNI_TRUE);
}
