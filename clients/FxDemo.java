// clients/javafx.conf and javafx-still.conf: a JavaFX stage (OpenJFX 11, its GTK 3 glass), compiled
// by the Makefile into clients/fx-demo/ where OpenJFX and a JDK are installed (the JDK's source
// launcher would compile it at every start).  `FxDemo animate` turns a rectangle for ever (a
// RotateTransition: Prism renders every pulse); `FxDemo still` shows a label and draws only when
// shown or resized.
import javafx.animation.Animation;
import javafx.animation.Interpolator;
import javafx.animation.RotateTransition;
import javafx.application.Application;
import javafx.scene.Scene;
import javafx.scene.control.Label;
import javafx.scene.layout.StackPane;
import javafx.scene.paint.Color;
import javafx.scene.shape.Rectangle;
import javafx.stage.Stage;
import javafx.util.Duration;

public class FxDemo extends Application {
    @Override
    public void start(Stage stage) {
        boolean animate = getParameters().getRaw().contains("animate");
        StackPane root = new StackPane();
        if (animate) {
            Rectangle box = new Rectangle(80, 80, Color.STEELBLUE);
            RotateTransition turn = new RotateTransition(Duration.seconds(2), box);
            turn.setByAngle(360);
            turn.setInterpolator(Interpolator.LINEAR);
            turn.setCycleCount(Animation.INDEFINITE);
            turn.play();
            root.getChildren().add(box);
        } else {
            root.getChildren().add(new Label("framesync: a still JavaFX stage"));
        }
        stage.setTitle("framesync javafx");
        stage.setScene(new Scene(root, 320, 200));
        stage.show();
    }

    public static void main(String[] args) {
        // the class object, not its name: it also runs from the JDK's source launcher, which loads
        // FxDemo in a class loader of its own, where launch(String...)'s Class.forName fails
        launch(FxDemo.class, args);
    }
}
