/*
 * Copyright (c) 2026, the rdio JDK authors. All rights reserved.
 * DO NOT ALTER OR REMOVE COPYRIGHT NOTICES OR THIS FILE HEADER.
 *
 * This code is free software; you can redistribute it and/or modify it
 * under the terms of the GNU General Public License version 2 only, as
 * published by the Free Software Foundation.  Oracle designates this
 * particular file as subject to the "Classpath" exception as provided
 * by Oracle in the LICENSE file that accompanied this code.
 *
 * This code is distributed in the hope that it will be useful, but WITHOUT
 * ANY WARRANTY; without even the implied warranty of MERCHANTABILITY or
 * FITNESS FOR A PARTICULAR PURPOSE.  See the GNU General Public License
 * version 2 for more details (a copy is included in the LICENSE file that
 * accompanied this code).
 *
 * You should have received a copy of the GNU General Public License version
 * 2 along with this work; if not, write to the Free Software Foundation,
 * Inc., 51 Franklin St, Fifth Floor, Boston, MA 02110-1301 USA.
 *
 * Please contact Oracle, 500 Oracle Parkway, Redwood Shores, CA 94065 USA
 * or visit www.oracle.com if you need additional information or have any
 * questions.
 */

#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "jni.h"
#include "jni_util.h"
#include "nio.h"
#include "nio_util.h"
#include "sun_nio_ch_LinuxDirectIO.h"

/*
 * statx is called through syscall(2) with the kernel's own layout and
 * constants, so that libnio needs no glibc symbol upstream's does not
 * (glibc's statx wrapper is versioned GLIBC_2.28) and the build machine's
 * headers may predate STATX_DIO_READ_ALIGN (Linux 6.14).
 */
#ifndef SYS_statx
#if defined(__x86_64__)
#define SYS_statx 332
#elif defined(__aarch64__) || defined(__riscv)
#define SYS_statx 291
#elif defined(__i386__)
#define SYS_statx 383
#elif defined(__powerpc__)
#define SYS_statx 383
#elif defined(__s390__)
#define SYS_statx 379
#endif
#endif

#define RDIO_AT_EMPTY_PATH        0x1000
#define RDIO_STATX_DIOALIGN       0x00002000U
#define RDIO_STATX_DIO_READ_ALIGN 0x00020000U

/* struct statx of <linux/stat.h>, as far as the fields read here. */
struct dio_statx {
    uint32_t stx_mask;
    uint32_t stx_blksize;
    uint64_t stx_attributes;
    uint32_t stx_nlink;
    uint32_t stx_uid;
    uint32_t stx_gid;
    uint16_t stx_mode;
    uint16_t pad0;
    uint64_t skip1[4];              /* ino, size, blocks, attributes_mask */
    uint64_t skip2[8];              /* four statx_timestamps */
    uint32_t skip3[4];              /* rdev and dev numbers */
    uint64_t stx_mnt_id;
    uint32_t stx_dio_mem_align;     /* 0x98 */
    uint32_t stx_dio_offset_align;
    uint64_t stx_subvol;
    uint32_t skip4[3];              /* atomic write limits */
    uint32_t stx_dio_read_offset_align;  /* 0xb4 */
    uint64_t spare[9];
};

_Static_assert(offsetof(struct dio_statx, stx_dio_mem_align) == 0x98, "statx layout");
_Static_assert(offsetof(struct dio_statx, stx_dio_read_offset_align) == 0xb4, "statx layout");
_Static_assert(sizeof(struct dio_statx) == 0x100, "statx layout");

/* Results, as LinuxDirectIO names them */
#define EXACT    1   /* out[] holds the kernel's values */
#define UNKNOWN  2   /* the kernel reports no alignment for the file */

static int power_of_two(uint32_t v) {
    return v != 0 && (v & (v - 1)) == 0;
}

/*
 * Fills out[] = { memory, offset, read offset } with the kernel's direct
 * I/O alignment of the file and returns EXACT, or returns UNKNOWN where the
 * kernel reports none: no statx, no STATX_DIOALIGN (before Linux 6.1, or a
 * file system that does not say), or zeros (ext4 with data=journal or
 * inline data, where O_DIRECT falls back to buffered I/O), or values that
 * are not powers of two.  Returns -1 with
 * errno set if statx fails for another reason.
 */
static int dio_align(int dirfd, const char *path, int flags, jint out[3]) {
#ifdef SYS_statx
    struct dio_statx sx;
    unsigned int mask = RDIO_STATX_DIOALIGN | RDIO_STATX_DIO_READ_ALIGN;
    if (syscall(SYS_statx, dirfd, path, flags, mask, &sx) != 0) {
        return (errno == ENOSYS || errno == EPERM) ? UNKNOWN : -1;
    }
    if ((sx.stx_mask & RDIO_STATX_DIOALIGN) == 0
            || sx.stx_dio_mem_align == 0 || sx.stx_dio_offset_align == 0) {
        return UNKNOWN;
    }
    out[0] = (jint)sx.stx_dio_mem_align;
    out[1] = (jint)sx.stx_dio_offset_align;
    out[2] = ((sx.stx_mask & RDIO_STATX_DIO_READ_ALIGN) != 0 && sx.stx_dio_read_offset_align != 0)
             ? (jint)sx.stx_dio_read_offset_align : out[1];
    /* The checks are mask tests: a value that is not a power of two (no
     * file system here reports one) gives the block size, and the kernel
     * refuses with EINVAL what it does not take. */
    if (!power_of_two(sx.stx_dio_mem_align) || !power_of_two(sx.stx_dio_offset_align)
            || !power_of_two((uint32_t)out[2]) || out[0] < 0 || out[1] < 0 || out[2] < 0) {
        return UNKNOWN;
    }
    return EXACT;
#else
    return UNKNOWN;
#endif
}

JNIEXPORT jint JNICALL
Java_sun_nio_ch_LinuxDirectIO_alignment0(JNIEnv *env, jclass clazz,
                                         jint fd, jintArray out)
{
    jint a[3] = { 0, 0, 0 };
    /* statx cannot fail on a descriptor just opened but for want of
     * memory; the block size then serves, as in JDK 25. */
    int result = dio_align(fd, "", RDIO_AT_EMPTY_PATH, a);
    if (result != EXACT)
        return UNKNOWN;
    (*env)->SetIntArrayRegion(env, out, 0, 3, a);
    return result;
}

JNIEXPORT jint JNICALL
Java_sun_nio_ch_LinuxDirectIO_query0(JNIEnv *env, jclass clazz,
                                     jbyteArray path, jintArray out)
{
    jint a[3] = { 0, 0, 0 };
    int result, err = 0;
    struct statvfs vfs;
    jbyte *p = (*env)->GetByteArrayElements(env, path, NULL);

    if (p == NULL)
        return IOS_THROWN;  /* OutOfMemoryError pending */
    /* Neither call opens the file: a FIFO or a device must not be opened
     * just to be asked about. */
    result = dio_align(AT_FDCWD, (const char *)p, 0, a);
    err = errno;
    if (result == UNKNOWN) {
        /* The alignment JDK 25 uses: the file system's fragment size. */
        if (statvfs((const char *)p, &vfs) == 0) {
            a[0] = a[1] = a[2] = (jint)vfs.f_frsize;
        } else {
            result = -1;
            err = errno;
        }
    }
    (*env)->ReleaseByteArrayElements(env, path, p, JNI_ABORT);
    if (result == -1) {
        errno = err;
        JNU_ThrowIOExceptionWithLastError(env, "Cannot read the file's direct I/O alignment");
        return IOS_THROWN;
    }
    (*env)->SetIntArrayRegion(env, out, 0, 3, a);
    return result;
}
