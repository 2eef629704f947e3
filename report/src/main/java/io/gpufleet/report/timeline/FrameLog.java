package io.gpufleet.report.timeline;

import io.gpufleet.sim.Checkpoint;
import io.gpufleet.sim.ImageListener;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Keeps the images a run hands out, at most {@code capacity} of them: when full it drops every
 * other image and from then on keeps one in two (then one in four, ...), so memory stays bounded
 * for any run while the first and last images and every checkpoint are always kept.
 */
public final class FrameLog implements ImageListener {

  private final int capacity;
  private final List<Image> images = new ArrayList<>();
  private Image last;
  private long offered;
  private long stride = 1;

  public FrameLog(int capacity) {
    if (capacity < 4) {
      throw new IllegalArgumentException("a frame log keeps at least 4 images, not " + capacity);
    }
    this.capacity = capacity;
  }

  @Override
  public void onImage(Image image) {
    last = image;
    if (offered++ % stride != 0) {
      return;
    }
    if (images.size() == capacity) {
      List<Image> kept = new ArrayList<>(capacity / 2 + 1);
      for (int i = 0; i < images.size(); i += 2) {
        kept.add(images.get(i));
      }
      images.clear();
      images.addAll(kept);
      stride *= 2;
      if ((offered - 1) % stride != 0) {
        return;
      }
    }
    images.add(image);
  }

  /** How many images the run handed out: the changes a frame could have been kept for. */
  public long offered() {
    return offered;
  }

  /** Whether images were dropped to stay within the capacity. */
  public boolean thinned() {
    return stride > 1;
  }

  /**
   * The kept images and the checkpoints, in run order: a checkpoint comes before the first image
   * recorded after more entries than it (the checkpoint was taken inside that image's event).
   */
  public List<Frame> frames(List<Checkpoint> checkpoints) {
    List<Image> all = new ArrayList<>(images);
    if (last != null && (all.isEmpty() || all.getLast() != last)) {
      all.add(last);
    }
    List<Frame> out = new ArrayList<>(all.size() + checkpoints.size());
    int c = 0;
    for (Image i : all) {
      while (c < checkpoints.size() && checkpoints.get(c).recordEntries() < i.recordEntries()) {
        out.add(checkpoint(checkpoints.get(c++)));
      }
      out.add(new Frame(i.time(), i.state(), i.recordEntries(), Optional.empty()));
    }
    while (c < checkpoints.size()) {
      out.add(checkpoint(checkpoints.get(c++)));
    }
    return List.copyOf(out);
  }

  private static Frame checkpoint(Checkpoint c) {
    return new Frame(c.time(), c.state(), c.recordEntries(), Optional.of(c.label()));
  }
}
