/*
 * Copyright (c) 2026, the rdio JDK authors. All rights reserved.
 * DO NOT ALTER OR REMOVE COPYRIGHT NOTICES OR THIS FILE HEADER.
 *
 * This code is free software; you can redistribute it and/or modify it
 * under the terms of the GNU General Public License version 2 only, as
 * published by the Free Software Foundation.
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

import java.lang.classfile.ClassFile;
import java.lang.classfile.ClassTransform;
import java.lang.classfile.Opcode;
import java.lang.classfile.CodeTransform;
import java.lang.classfile.instruction.FieldInstruction;
import java.lang.classfile.instruction.InvokeInstruction;
import java.lang.constant.ClassDesc;
import java.lang.constant.MethodTypeDesc;
import java.lang.instrument.ClassFileTransformer;
import java.lang.instrument.Instrumentation;
import java.net.InetAddress;
import java.security.ProtectionDomain;

/**
 * A Java agent for test/infra/rdma-conformance.sh, which runs upstream's
 * socket tests unchanged over transparent RDMA: it makes
 * {@code InetAddress.getLoopbackAddress()} and {@code getByName(null)}
 * return the address of the RDMA device, its argument, and so the loopback
 * address that NIO connects to in place of the wildcard, because rdma_cm
 * cannot connect to a loopback address over a RoCE device. The tests'
 * other names for the local host ("localhost", the host name) get the same
 * address from the run's jdk.net.hosts.file. Nothing else changes.
 *
 *   -javaagent:loopback-to-rdma.jar=10.77.0.1
 *
 * The jar's manifest has Premain-Class: LoopbackToRdma and
 * Can-Retransform-Classes: true.
 */
public class LoopbackToRdma {
    private static final ClassDesc INET_ADDRESS = ClassDesc.of("java.net.InetAddress");
    private static final MethodTypeDesc OF_LITERAL =
            MethodTypeDesc.of(INET_ADDRESS, ClassDesc.of("java.lang.String"));

    public static void premain(String address, Instrumentation inst) throws Exception {
        InetAddress.ofLiteral(address);     // fails at once if it is not an address
        // impl.loopbackAddress() becomes InetAddress.ofLiteral(address)
        // wherever InetAddress asks for the loopback address:
        // getLoopbackAddress(), getByName(null) and getAllByName(""), and
        // the "localhost" fallbacks
        CodeTransform calls = (builder, element) -> {
            if (element instanceof InvokeInstruction i
                    && i.owner().asInternalName().equals("java/net/InetAddressImpl")
                    && i.name().equalsString("loopbackAddress")) {
                builder.pop().ldc(address).invokestatic(INET_ADDRESS, "ofLiteral", OF_LITERAL);
            } else if (element instanceof FieldInstruction f
                    && f.owner().asInternalName().equals("sun/nio/ch/Net")
                    && f.name().stringValue().matches("INET[46]_LOOPBACK_ADDRESS")
                    && f.opcode() == Opcode.GETSTATIC) {
                // Net.inet4LoopbackAddress(), inet6LoopbackAddress(): a
                // connect to the wildcard address goes there
                builder.ldc(address).invokestatic(INET_ADDRESS, "ofLiteral", OF_LITERAL);
            } else {
                builder.with(element);
            }
        };
        ClassFileTransformer transformer = new ClassFileTransformer() {
            @Override
            public byte[] transform(Module module, ClassLoader loader, String name, Class<?> redefined,
                                    ProtectionDomain domain, byte[] bytes) {
                if (!"java/net/InetAddress".equals(name) && !"sun/nio/ch/Net".equals(name))
                    return null;
                ClassFile cf = ClassFile.of();
                return cf.transformClass(cf.parse(bytes), ClassTransform.transformingMethodBodies(calls));
            }
        };
        inst.addTransformer(transformer, true);
        try {
            inst.retransformClasses(InetAddress.class, Class.forName("sun.nio.ch.Net"));
        } finally {
            inst.removeTransformer(transformer);
        }
        if (!InetAddress.getLoopbackAddress().equals(InetAddress.ofLiteral(address))
                || !InetAddress.getByName(null).equals(InetAddress.ofLiteral(address)))
            throw new IllegalStateException("the loopback address was not replaced");
    }
}
