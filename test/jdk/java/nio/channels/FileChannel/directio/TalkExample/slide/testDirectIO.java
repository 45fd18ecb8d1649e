import java.nio.file.Paths;
import java.nio.file.Path;
import java.nio.channels.FileChannel;
import java.nio.ByteBuffer;
import com.sun.nio.file.ExtendedOpenOption;
import java.nio.file.FileStore;
import java.nio.file.Files;
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
    int alignment = store.getBlockSize();
    ByteBuffer buf = ByteBuffer.allocateDirect(fileSize + alignment - 1).alignedSlice(alignment);
    int result = newChannel.read(buf);
    newChannel.close();
  }
}
