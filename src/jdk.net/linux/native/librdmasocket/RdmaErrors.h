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

#ifndef RDMAERRORS_H
#define RDMAERRORS_H

/*
 * The exceptions of rsockets' errors (RdmaErrors.c).  Each throws and
 * returns IOS_THROWN; ioStatus returns a status for "would block" and
 * "interrupted" instead.
 */

#include "jni.h"

#define SOCKET_EXCEPTION  JNU_JAVANETPKG "SocketException"

/* SocketException, or "Connection reset", for errno err. */
jint throwSocketError(JNIEnv *env, int err);

/* The failure of a connect: refused, unreachable, the device's refusal, or a
   failure rsockets reported without an error code. */
jint throwConnectFailed(JNIEnv *env);
jint throwConnectError(JNIEnv *env, int err);

/* The failure of a bind, or of the listen that completes it. */
jint throwBindError(JNIEnv *env, int err);

/* The status or exception of a failed read, write or accept. */
jint ioStatus(JNIEnv *env, int err, jboolean reading);

#endif
