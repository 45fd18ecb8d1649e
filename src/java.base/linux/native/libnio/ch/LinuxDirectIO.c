/*
 * Copyright (c) 2026, the rdio JDK authors.
 * Licensed under the GNU General Public License version 2 only.
 */

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "jni.h"
#include "jni_util.h"
#include "nio.h"
#include "nio_util.h"
#include "sun_nio_ch_LinuxDirectIO.h"

#define UNSUPPORTED 0
#define EXACT       1
#define UNKNOWN     2
#define BLOCK_SIZE  3

/* The kernel's direct I/O alignment of fd: EXACT with out[] set, UNSUPPORTED
 * when the kernel says the file has none, UNKNOWN when it does not say. */
static int dio_align(int fd, jint out[2]) {
#ifdef STATX_DIOALIGN
    struct statx sx;
    if (statx(fd, "", AT_EMPTY_PATH, STATX_DIOALIGN, &sx) == 0
            && (sx.stx_mask & STATX_DIOALIGN) != 0) {
        if (sx.stx_dio_offset_align == 0 || sx.stx_dio_mem_align == 0)
            return UNSUPPORTED;
        out[0] = (jint)sx.stx_dio_mem_align;
        out[1] = (jint)sx.stx_dio_offset_align;
        return EXACT;
    }
#endif
    return UNKNOWN;
}

JNIEXPORT jint JNICALL
Java_sun_nio_ch_LinuxDirectIO_alignment0(JNIEnv *env, jclass clazz,
                                         jint fd, jintArray out)
{
    jint a[2] = { 0, 0 };
    int result = dio_align(fd, a);
    (*env)->SetIntArrayRegion(env, out, 0, 2, a);
    return result;
}

JNIEXPORT jint JNICALL
Java_sun_nio_ch_LinuxDirectIO_query0(JNIEnv *env, jclass clazz,
                                     jbyteArray path, jintArray out)
{
    jint a[2] = { 0, 0 };
    int result, flags;
    struct statvfs vfs;
    jbyte *p = (*env)->GetByteArrayElements(env, path, NULL);
    int fd;

    if (p == NULL)
        return UNSUPPORTED;  /* OutOfMemoryError pending */
    do {
        fd = open((const char *)p, O_RDONLY | O_CLOEXEC);
    } while (fd == -1 && errno == EINTR);
    (*env)->ReleaseByteArrayElements(env, path, p, JNI_ABORT);
    if (fd < 0) {
        JNU_ThrowIOExceptionWithLastError(env, "Cannot open the file to query its direct I/O alignment");
        return UNSUPPORTED;
    }
    result = dio_align(fd, a);
    if (result == UNKNOWN) {
        /* Whether the file system takes O_DIRECT at all, and its block size,
         * the alignment upstream uses. */
        flags = fcntl(fd, F_GETFL);
        if (flags == -1 || fcntl(fd, F_SETFL, flags | O_DIRECT) == -1) {
            if (errno == EINVAL) {
                result = UNSUPPORTED;
            } else {
                JNU_ThrowIOExceptionWithLastError(env, "fcntl failed");
            }
        } else if (fstatvfs(fd, &vfs) == -1) {
            JNU_ThrowIOExceptionWithLastError(env, "fstatvfs failed");
        } else {
            a[0] = a[1] = (jint)vfs.f_frsize;
            result = BLOCK_SIZE;
        }
    }
    close(fd);
    (*env)->SetIntArrayRegion(env, out, 0, 2, a);
    return result;
}
