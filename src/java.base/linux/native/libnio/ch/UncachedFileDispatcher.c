/*
 * Copyright (c) 2026, the rdio JDK authors.
 * Licensed under the GNU General Public License version 2 only.
 */

#include <errno.h>
#include <sys/uio.h>

#include "jni.h"
#include "jni_util.h"
#include "jlong.h"
#include "nio.h"
#include "nio_util.h"
#include "sun_nio_ch_UncachedFileDispatcher.h"

/* Linux 6.14 uapi; the build machine's headers may be older. */
#ifndef RWF_DONTCACHE
#define RWF_DONTCACHE 0x00000080
#endif

JNIEXPORT jboolean JNICALL
Java_sun_nio_ch_UncachedFileDispatcher_supported0(JNIEnv *env, jclass clazz,
                                                  jobject fdo)
{
    char c;
    struct iovec iov = { &c, 1 };
    ssize_t n = preadv2(fdval(env, fdo), &iov, 1, 0, RWF_DONTCACHE);
    /* The kernel rejects the flag before it looks at the file's size. */
    return (n >= 0 || errno != EOPNOTSUPP) ? JNI_TRUE : JNI_FALSE;
}

JNIEXPORT jint JNICALL
Java_sun_nio_ch_UncachedFileDispatcher_rw0(JNIEnv *env, jclass clazz, jobject fdo,
                                           jlong address, jint len,
                                           jlong position, jboolean write)
{
    struct iovec iov = { jlong_to_ptr(address), (size_t)len };
    jint fd = fdval(env, fdo);
    ssize_t n = write ? pwritev2(fd, &iov, 1, (off_t)position, RWF_DONTCACHE)
                      : preadv2(fd, &iov, 1, (off_t)position, RWF_DONTCACHE);
    return convertReturnVal(env, (jint)n, write ? JNI_FALSE : JNI_TRUE);
}

JNIEXPORT jlong JNICALL
Java_sun_nio_ch_UncachedFileDispatcher_rwv0(JNIEnv *env, jclass clazz, jobject fdo,
                                            jlong address, jint iovcnt,
                                            jboolean write)
{
    struct iovec *iov = (struct iovec *)jlong_to_ptr(address);
    jint fd = fdval(env, fdo);
    ssize_t n = write ? pwritev2(fd, iov, iovcnt, -1, RWF_DONTCACHE)
                      : preadv2(fd, iov, iovcnt, -1, RWF_DONTCACHE);
    return convertLongReturnVal(env, (jlong)n, write ? JNI_FALSE : JNI_TRUE);
}
