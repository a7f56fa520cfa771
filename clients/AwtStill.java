// clients/java.conf: a still Java AWT frame (XToolkit), run by the JDK's source launcher.
import java.awt.Frame;
import java.awt.Label;

public class AwtStill {
    public static void main(String[] args) {
        Frame f = new Frame("framesync java awt");
        f.add(new Label("framesync: a still AWT frame"));
        f.setSize(320, 200);
        f.setVisible(true);
    }
}
