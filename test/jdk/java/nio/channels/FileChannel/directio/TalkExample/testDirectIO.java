// The direct I/O example of the talk "Programming modern devices with
// JDK 10 and beyond", as it compiles on JDK 10 and later.  It differs from
// the slide (slide/testDirectIO.java) in two places only, both marked:
// the slide leaves out the java.io imports, and it was written when
// FileStore.getBlockSize() returned int; the API returns long since JDK 10.
import java.nio.file.Paths;
import java.nio.file.Path;
import java.nio.channels.FileChannel;
import java.nio.ByteBuffer;
import com.sun.nio.file.ExtendedOpenOption;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.io.File;                // not on the slide
import java.io.FileOutputStream;    // not on the slide
import java.io.IOException;         // not on the slide
public class testDirectIO {
  public static void main (String[] args) throws IOException {
    int fileSize = 8192;
    File datafile = File.createTempFile("myfile", null);
    datafile.deleteOnExit();
    FileOutputStream fos = new FileOutputStream(datafile);
    fos.write(new byte[fileSize]);
    fos.close();
    String path = datafile.getAbsolutePath();
    Path p = Paths.get(path);
    FileChannel newChannel = FileChannel.open(p, ExtendedOpenOption.DIRECT);
    FileStore store = Files.getFileStore(p);
    int alignment = (int) store.getBlockSize();   // slide: no (int) cast
    ByteBuffer buf = ByteBuffer.allocateDirect(fileSize + alignment - 1).alignedSlice(alignment);
    int result = newChannel.read(buf);
    newChannel.close();
  }
}
