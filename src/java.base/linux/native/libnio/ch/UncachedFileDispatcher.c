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
#include <stdint.h>
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

/* Whether a failed call was a refusal of the flag, having transferred
 * nothing: EOPNOTSUPP from the kernel or the file system, ENOSYS or EPERM
 * where the calls are missing or a seccomp filter denies them.  A genuine
 * EPERM comes again from the call without the flag. */
static int refused(void) {
    return errno == EOPNOTSUPP || errno == ENOSYS || errno == EPERM;
}

JNIEXPORT jint JNICALL
Java_sun_nio_ch_UncachedFileDispatcher_probe0(JNIEnv *env, jclass clazz, jobject fdo)
{
    char c;
    struct iovec iov = { &c, 1 };
    /* The kernel checks the flag before the file's size or contents. */
    ssize_t n = rw2(0, fdval(env, fdo), &iov, 1, 0);
    return (n == -1 && refused()) ? IOS_UNSUPPORTED : 0;
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
