package io.gpufleet.engine.scheduler;

import io.gpufleet.model.collect.PMap;
import io.gpufleet.model.node.ContainerImage;
import io.gpufleet.model.node.Node;
import io.gpufleet.model.taint.Taint;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;

/**
 * An immutable image of the nodes and the pods bound to them, in a fixed node order (the order
 * the scheduler iterates). Every change returns a new image that shares the untouched nodes, and
 * the name index: a node added or removed costs one update of a persistent map, not a rebuild of
 * the index over every node (as kube-scheduler's cache updates its node map in place instead of
 * rebuilding it). The nodes and their columns (taint classes, label values, image sizes) are
 * {@link ChunkedArray}s, so a bind, an unbind or a node changed copies a chunk of each array it
 * changes, not the array; a node removed shifts those after it.
 */
public final class ClusterSnapshot {

  private final ChunkedArray.Refs<NodeInfo> nodes;
  /**
   * Each node's slot, by node index: a number given when the node was added, so ascending in node
   * order. The index maps a name to its slot, which stays put when an earlier node is removed; the
   * node's position is the slot's place in this array. A plain array, read at every node the
   * scheduler's memo looks at: it changes only when a node comes or goes, never at a bind.
   */
  private final int[] slots;
  private final PMap<String, Integer> index;
  /** The slot the next node added takes. */
  private final int nextSlot;
  /**
   * Each node's value of a label, by node index, made on first use: shared with every image a bind
   * or an unbind derives from this one, since those keep every node and its labels where they were,
   * carried over, shifted, to an image with a node added or removed, and with the one value changed
   * to an image with a node relabelled.
   */
  private final LabelColumns columns;
  /** Pods with pod (anti-)affinity, and with required anti-affinity, over all nodes: InterPodAffinity skips at 0. */
  private final int podsWithAffinity;
  private final int podsWithRequiredAntiAffinity;
  /**
   * No bound pod has a lower priority than this: the lowest priority of the pods bound when the
   * lineage began or bound since, kept through unbinds (it may then lie below every pod left, never
   * above one). DefaultPreemption answers at once, without reading every node's pods, when no pod
   * can be below the preemptor.
   */
  private final int podPriorityFloor;
  /**
   * PodTopologySpread's matching-pod counts, each made on first use for this image and carried, by
   * the delta, to every image derived from it (a few keys, one per workload, cover a simulation).
   * Images whose counts cannot differ (a node added without pods, a node changed but not its labels)
   * share one map, so counts either makes serve both; otherwise counts made after an image was
   * derived stay the maker's own.
   */
  private final AtomicReference<Spreads> spreads;

  private ClusterSnapshot(ChunkedArray.Refs<NodeInfo> nodes, int[] slots, PMap<String, Integer> index, int nextSlot,
      int podsWithAffinity, int podsWithRequiredAntiAffinity, int podPriorityFloor, LabelColumns columns,
      AtomicReference<Spreads> spreads) {
    this.nodes = nodes;
    this.slots = slots;
    this.index = index;
    this.nextSlot = nextSlot;
    this.columns = columns;
    this.podsWithAffinity = podsWithAffinity;
    this.podsWithRequiredAntiAffinity = podsWithRequiredAntiAffinity;
    this.podPriorityFloor = podPriorityFloor;
    this.spreads = spreads;
  }

  /**
   * A priority no bound pod is below ({@link Integer#MAX_VALUE} while none was bound): when a pod's
   * priority is not above it, no node holds a pod it could preempt. After pods leave it may lie below
   * every pod left, so a pod above it may still find no victim.
   */
  public int podPriorityFloor() {
    return podPriorityFloor;
  }

  public int podsWithAffinity() {
    return podsWithAffinity;
  }

  public int podsWithRequiredAntiAffinity() {
    return podsWithRequiredAntiAffinity;
  }

  public static ClusterSnapshot of(List<Node> nodes) {
    return ofInfos(nodes.stream().map(NodeInfo::of).toList());
  }

  public static ClusterSnapshot ofInfos(List<NodeInfo> infos) {
    NodeInfo[] arr = infos.toArray(NodeInfo[]::new);
    int[] slots = new int[arr.length];
    PMap<String, Integer> index = PMap.empty();
    int affinity = 0;
    int anti = 0;
    int floor = Integer.MAX_VALUE;
    for (int i = 0; i < arr.length; i++) {
      if (index.containsKey(arr[i].name())) {
        throw new IllegalArgumentException("duplicate node name " + arr[i].name());
      }
      slots[i] = i;
      index = index.put(arr[i].name(), i);
      affinity += arr[i].podsWithAffinity().size();
      anti += arr[i].podsWithRequiredAntiAffinity().size();
      floor = Math.min(floor, arr[i].lowestPodPriority());
    }
    return new ClusterSnapshot(ChunkedArray.Refs.of(Arrays.asList(arr)), slots, index, arr.length, affinity, anti,
        floor, new LabelColumns(), new AtomicReference<>(new Spreads(PMap.empty())));
  }

  public int size() {
    return nodes.size();
  }

  public NodeInfo get(int i) {
    return nodes.get(i);
  }

  /**
   * Node {@code i}'s slot: a number given when the node was added to this image's lineage, kept
   * while it stays, below {@link #slotBound()}. A memo indexed by slot finds a node's entry in an
   * array; it must still check the entry's NodeInfo, since another lineage numbers its nodes anew.
   */
  public int slot(int i) {
    return slots[i];
  }

  /** Above every slot of this image's nodes. */
  public int slotBound() {
    return nextSlot;
  }

  /**
   * The chunk of NodeInfos at positions {@code c * ChunkedArray.SIZE} on. Chunks are shared only
   * where they stay put (a change copies its own chunk, a removal every chunk from its own on, an
   * added node the last), so wherever the same object is found it holds the same NodeInfos at the
   * same positions.
   */
  Object nodeChunk(int c) {
    return nodes.chunks[c];
  }

  public Optional<NodeInfo> node(String name) {
    int i = position(name);
    return i < 0 ? Optional.empty() : Optional.of(nodes.get(i));
  }

  /** The nodes in order, as an immutable list read through this image. */
  public List<NodeInfo> nodes() {
    return nodes.asList();
  }

  /** The image after binding a pod to a node. */
  public ClusterSnapshot bind(PodInfo pod, String nodeName) {
    int i = indexOf(nodeName);
    NodeInfo before = nodes.get(i);
    return replace(i, before.withPod(pod), carried(List.of(pod), c -> c.withPod(before.node(), pod, 1)));
  }

  /** The image after a pod leaves a node. */
  public ClusterSnapshot unbind(String podKey, String nodeName) {
    int i = indexOf(nodeName);
    NodeInfo before = nodes.get(i);
    NodeInfo after = before.withoutPod(podKey);
    if (after == before) {
      return replace(i, after, spreads);
    }
    PodInfo pod = null;
    for (PodInfo p : before.pods()) {
      if (p.key().equals(podKey)) {
        pod = p;
        break;
      }
    }
    PodInfo removed = pod;
    return replace(i, after, carried(List.of(removed), c -> c.withPod(before.node(), removed, -1)));
  }

  /** The image with a node changed (labels, taints, allocatable, cordon), its pods kept. */
  public ClusterSnapshot withNode(Node changed) {
    int i = position(changed.name());
    if (i < 0) {
      return addNode(changed);
    }
    NodeInfo info = nodes.get(i);
    Node before = info.node();
    if (before.labels().equals(changed.labels())) {
      return replace(i, info.withNode(changed), spreads);
    }
    // Labels the counts do not group by changed: every count stays, in a map of this image's own,
    // since counts made later for another topology key may differ between the two.
    Spreads counts = spreads.get();
    return replace(i, info.withNode(changed), counts.keys().sameDomains(before, changed)
        ? new AtomicReference<>(counts) : carried(c -> c.relabelled(before, changed)));
  }

  /** The image with a node added last, with no pods. */
  public ClusterSnapshot addNode(Node node) {
    if (index.containsKey(node.name())) {
      throw new IllegalArgumentException("node " + node.name() + " already exists");
    }
    int n = slots.length;
    NodeInfo info = NodeInfo.of(node);
    int[] nextSlots = Arrays.copyOf(slots, n + 1);
    nextSlots[n] = nextSlot;
    return new ClusterSnapshot(nodes.append(info), nextSlots, index.put(node.name(), nextSlot), nextSlot + 1,
        podsWithAffinity + info.podsWithAffinity().size(),
        podsWithRequiredAntiAffinity + info.podsWithRequiredAntiAffinity().size(),
        Math.min(podPriorityFloor, info.lowestPodPriority()), columns.added(info),
        spreads);
  }

  /** The image without a node; its pods go with it (the caller decides what becomes of them). */
  public ClusterSnapshot removeNode(String name) {
    int i = indexOf(name);
    int n = slots.length;
    int[] nextSlots = new int[n - 1];
    System.arraycopy(slots, 0, nextSlots, 0, i);
    System.arraycopy(slots, i + 1, nextSlots, i, n - 1 - i);
    NodeInfo leaving = nodes.get(i);
    Node gone = leaving.node();
    return new ClusterSnapshot(nodes.without(i), nextSlots, index.remove(name), nextSlot,
        podsWithAffinity - leaving.podsWithAffinity().size(),
        podsWithRequiredAntiAffinity - leaving.podsWithRequiredAntiAffinity().size(), podPriorityFloor,
        columns.removed(i, gone), carried(leaving.pods(), c -> c.plus(gone, -c.onNode(name))));
  }

  /** The node's index, or -1 when there is none by that name. */
  int position(String nodeName) {
    Integer slot = index.get(nodeName);
    return slot == null ? -1 : Arrays.binarySearch(slots, slot);
  }

  private int indexOf(String nodeName) {
    int i = position(nodeName);
    if (i < 0) {
      throw new IllegalArgumentException("no node named " + nodeName);
    }
    return i;
  }

  /** This image's spread counts, each passed through {@code delta}, for a derived image. */
  @SuppressWarnings("unchecked")
  private AtomicReference<Spreads> carried(UnaryOperator<SpreadCounts> delta) {
    Spreads before = spreads.get();
    PMap<SpreadCounts.Key, SpreadCounts>[] after = new PMap[] {before.counts};
    // Most counts are unchanged by a delta (a pod matches one workload's keys): only the changed are put.
    before.counts.forEach((key, counts) -> {
      SpreadCounts next = delta.apply(counts);
      if (next != counts) {
        after[0] = after[0].put(key, next);
      }
    });
    return new AtomicReference<>(new Spreads(after[0], before.keys));
  }

  /**
   * This image's spread counts with {@code delta} applied once to each key that may match one of {@code pods}
   * ({@link SpreadKeys}), for a change to those pods alone (bound, unbound, or removed with their node): a key
   * counts pods only where one matched it, so the others' counts are unchanged by it. The key set stays, so
   * does its index. Asking every key made each node removal cost the number of workloads (issue 33 item 7:
   * 6.5x the samples on the large week for 4x the services).
   */
  @SuppressWarnings("unchecked")
  private AtomicReference<Spreads> carried(List<PodInfo> pods, UnaryOperator<SpreadCounts> delta) {
    Spreads before = spreads.get();
    if (before.counts.isEmpty() || pods.isEmpty()) {
      return new AtomicReference<>(new Spreads(before.counts, before.keys));
    }
    PMap<SpreadCounts.Key, SpreadCounts>[] after = new PMap[] {before.counts};
    SpreadKeys keys = before.keys();
    Set<SpreadCounts.Key> asked = pods.size() == 1 ? null : new HashSet<>(); // one pod reaches each key once
    for (PodInfo pod : pods) {
      keys.forEachCandidate(pod, key -> {
        if (asked == null || asked.add(key)) {
          SpreadCounts counts = before.counts.get(key);
          SpreadCounts next = delta.apply(counts);
          if (next != counts) {
            after[0] = after[0].put(key, next);
          }
        }
      });
    }
    return new AtomicReference<>(new Spreads(after[0], keys));
  }

  /** An image's spread counts by key, with the index of their keys made on first use. */
  private static final class Spreads {
    final PMap<SpreadCounts.Key, SpreadCounts> counts;
    /** Made from {@link #counts}'s keys when first asked; immutable once made (racing threads make equal ones). */
    private SpreadKeys keys;

    Spreads(PMap<SpreadCounts.Key, SpreadCounts> counts) {
      this(counts, null);
    }

    Spreads(PMap<SpreadCounts.Key, SpreadCounts> counts, SpreadKeys keys) {
      this.counts = counts;
      this.keys = keys;
    }

    SpreadKeys keys() {
      SpreadKeys k = keys;
      if (k == null) {
        keys = k = SpreadKeys.of(counts);
      }
      return k;
    }
  }

  /**
   * PodTopologySpread's counts for {@code key} over this image's nodes: carried from the image this
   * one derives from, or counted now from every node's pods.
   */
  public SpreadCounts spreadCounts(SpreadCounts.Key key) {
    SpreadCounts known = spreads.get().counts.get(key);
    if (known != null) {
      return known;
    }
    SpreadCounts made = SpreadCounts.of(key, nodes());
    // Racing threads make equal counts; the first one in stays.
    return spreads.updateAndGet(s -> s.counts.containsKey(key) ? s : new Spreads(s.counts.put(key, made)))
        .counts.get(key);
  }

  private ClusterSnapshot replace(int i, NodeInfo info, AtomicReference<Spreads> nextSpreads) {
    NodeInfo was = nodes.get(i);
    // The same Node object keeps its labels: the label columns stay valid for the new image.
    LabelColumns kept = info.node() == was.node() ? columns : columns.replaced(i, was.node(), info.node());
    return new ClusterSnapshot(nodes.set(i, info), slots, index, nextSlot,
        podsWithAffinity - was.podsWithAffinity().size() + info.podsWithAffinity().size(),
        podsWithRequiredAntiAffinity - was.podsWithRequiredAntiAffinity().size()
            + info.podsWithRequiredAntiAffinity().size(), Math.min(podPriorityFloor, info.lowestPodPriority()), kept,
        nextSpreads);
  }

  /**
   * The value of label {@code key} on every node, by node index ({@code null} where a node lacks it):
   * a topology domain read once per image lineage instead of once per node per scheduling cycle.
   */
  public LabelColumn labelColumn(String key) {
    return columns.byKey.computeIfAbsent(key, k -> {
      List<String> values = new ArrayList<>(nodes.size());
      int missing = 0;
      for (int i = 0; i < nodes.size(); i++) {
        String v = nodes.get(i).node().labels().get(k).orElse(null);
        values.add(v);
        missing += v == null ? 1 : 0;
      }
      return new LabelColumn(ChunkedArray.Refs.of(values), missing);
    });
  }

  /**
   * The size each node reports for the image it holds under {@code name}, by node index ({@link
   * Node#image}'s, -1 where a node holds none): ImageLocality reads it for every scored node of every
   * pod instead of searching that node's images by name. Made on first use per image lineage, then
   * carried by deltas as the label columns are (shared through binds, a value changed with a node's
   * images, shifted as nodes come and go). A shortcut of the twin's, not a step of kube-scheduler's.
   */
  public ImageSizes imageSizes(String name) {
    return columns.sizesByImage.computeIfAbsent(name, k -> {
      long[] sizes = new long[nodes.size()];
      for (int i = 0; i < sizes.length; i++) {
        sizes[i] = ImageSizes.of(nodes.get(i).node(), k);
      }
      return new ImageSizes(ChunkedArray.Longs.of(sizes));
    });
  }

  /** Whether any node reports an image it holds: ImageLocality skips at once when none does. */
  public boolean anyNodeHoldsImages() {
    return !imageHolders().isEmpty();
  }

  /**
   * How many nodes hold an image under {@code name} (upstream ImageLocality's {@code
   * createImageExistenceMap}, which walks every node each cycle). Counted once per image lineage and
   * carried by deltas to images with a node added, removed or changed.
   */
  public int nodesHoldingImage(String name) {
    Integer n = imageHolders().get(name);
    return n == null ? 0 : n;
  }

  private PMap<String, Integer> imageHolders() {
    PMap<String, Integer> known = columns.imageHolders;
    if (known == null) {
      known = PMap.empty();
      for (int i = 0; i < nodes.size(); i++) {
        known = LabelColumns.holding(known, nodes.get(i).node(), 1);
      }
      columns.imageHolders = known;
    }
    return known;
  }

  /** 1 when some node passes {@code test}, else 0. */
  private int anyNode(Predicate<Node> test) {
    for (int i = 0; i < nodes.size(); i++) {
      if (test.test(nodes.get(i).node())) {
        return 1;
      }
    }
    return 0;
  }

  /** Whether any node is cordoned: NodeUnschedulable is skipped at once when none is. Known once per image lineage. */
  public boolean anyNodeUnschedulable() {
    int known = columns.anyUnschedulable;
    if (known < 0) {
      known = anyNode(Node::unschedulable);
      columns.anyUnschedulable = known;
    }
    return known == 1;
  }

  /**
   * Every node's taint list as a class number, equal lists sharing one: a cycle decides each class
   * once instead of each node. Made on first use, then carried by every delta to the images derived
   * from this one (a node added, removed or its taints changed updates the classes instead of a
   * regrouping of every node), as the image holders are.
   */
  public TaintClasses taintClasses() {
    TaintClasses known = columns.taintClasses;
    if (known == null) {
      known = TaintClasses.of(nodes());
      columns.taintClasses = known;
    }
    return known;
  }

  /**
   * Nodes grouped by equal taint lists; read-only. Every class holds at least one node, so the
   * classes are exactly the distinct lists of the nodes (their numbering may differ from a
   * regrouping's: the verdicts read through them do not depend on it).
   */
  public static final class TaintClasses {
    private final ChunkedArray.Ints classOf;
    private final List<List<Taint>> lists;
    /** How many nodes each class holds. */
    private final int[] members;
    private final PMap<List<Taint>, Integer> numbers;

    private TaintClasses(ChunkedArray.Ints classOf, List<List<Taint>> lists, int[] members,
        PMap<List<Taint>, Integer> numbers) {
      this.classOf = classOf;
      this.lists = lists;
      this.members = members;
      this.numbers = numbers;
    }

    /** The classes of {@code nodes}, numbered in the order of their first node. */
    static TaintClasses of(List<NodeInfo> nodes) {
      Change change = new Change(new TaintClasses(ChunkedArray.Ints.EMPTY, List.of(), new int[0], PMap.empty()));
      int[] classOf = new int[nodes.size()];
      for (int i = 0; i < classOf.length; i++) {
        classOf[i] = change.join(nodes.get(i).node().taints());
      }
      return change.done(ChunkedArray.Ints.of(classOf));
    }

    /** The classes with a node carrying {@code taints} added last. */
    TaintClasses added(List<Taint> taints) {
      Change change = new Change(this);
      return change.done(classOf.append(change.join(taints)));
    }

    /** The classes without node {@code i}. */
    TaintClasses removed(int i) {
      Change change = new Change(this);
      return change.done(change.leave(classOf.get(i), classOf.without(i)));
    }

    /** The classes with node {@code i} now carrying {@code taints}. */
    TaintClasses retainted(int i, List<Taint> taints) {
      int was = classOf.get(i);
      if (lists.get(was).equals(taints)) {
        return this;
      }
      Change change = new Change(this);
      return change.done(change.leave(was, classOf.set(i, change.join(taints))));
    }

    /** One change's copy of the classes (few: one per pool's taint list), made into new classes by {@link #done}. */
    private static final class Change {
      private final List<List<Taint>> lists;
      private int[] members;
      private PMap<List<Taint>, Integer> numbers;

      Change(TaintClasses from) {
        lists = new ArrayList<>(from.lists);
        members = from.members.clone();
        numbers = from.numbers;
      }

      /** The class of {@code taints} with one more node; a new class, numbered last, when none has that list. */
      int join(List<Taint> taints) {
        Integer c = numbers.get(taints);
        if (c == null) {
          c = lists.size();
          lists.add(taints);
          numbers = numbers.put(taints, c);
          members = Arrays.copyOf(members, c + 1);
        }
        members[c]++;
        return c;
      }

      /**
       * Class {@code c} with one node less, and {@code classOf} as it then reads. A class left empty
       * goes: the last class takes its number, rewritten in {@code classOf} (one pass over the nodes,
       * only when a taint list's last node goes).
       */
      ChunkedArray.Ints leave(int c, ChunkedArray.Ints classOf) {
        if (--members[c] > 0) {
          return classOf;
        }
        numbers = numbers.remove(lists.get(c));
        int last = lists.size() - 1;
        if (c != last) {
          lists.set(c, lists.get(last));
          members[c] = members[last];
          numbers = numbers.put(lists.get(c), c);
          classOf = classOf.replaceAll(last, c);
        }
        lists.removeLast();
        members = Arrays.copyOf(members, last);
        return classOf;
      }

      TaintClasses done(ChunkedArray.Ints classOf) {
        return new TaintClasses(classOf, List.copyOf(lists), members, numbers);
      }
    }

    /** The class of node {@code i}. */
    public int of(int i) {
      return classOf.get(i);
    }

    /** How many distinct taint lists the nodes carry. */
    public int count() {
      return lists.size();
    }

    /** The taint list of class {@code c}. */
    public List<Taint> taints(int c) {
      return lists.get(c);
    }

    /** How many nodes carry the taint list of class {@code c}. */
    public int members(int c) {
      return members[c];
    }
  }

  /** One label's values by node index; read-only. */
  public static final class LabelColumn {
    private final ChunkedArray.Refs<String> values;
    private final int missing;

    /** {@code missing}: how many of {@code values} are null. */
    private LabelColumn(ChunkedArray.Refs<String> values, int missing) {
      this.values = values;
      this.missing = missing;
    }

    /** The column with node {@code i}'s value now {@code value}. */
    LabelColumn with(int i, String value) {
      String was = values.get(i);
      return new LabelColumn(values.set(i, value), missing - (was == null ? 1 : 0) + (value == null ? 1 : 0));
    }

    /** The column with a node of value {@code value} added last. */
    LabelColumn plus(String value) {
      return new LabelColumn(values.append(value), missing + (value == null ? 1 : 0));
    }

    /** The column without node {@code i}. */
    LabelColumn without(int i) {
      return new LabelColumn(values.without(i), missing - (values.get(i) == null ? 1 : 0));
    }

    /** How many nodes lack the label. */
    public int missing() {
      return missing;
    }

    /** The label's value on node {@code i}, or null when the node has no such label. */
    public String get(int i) {
      return values.get(i);
    }
  }

  /** One image's size on each node by node index, -1 where a node does not hold it; read-only. */
  public static final class ImageSizes {
    private final ChunkedArray.Longs sizes;

    private ImageSizes(ChunkedArray.Longs sizes) {
      this.sizes = sizes;
    }

    /** The size node {@code i} reports for the image, or -1 when it holds none by that name. */
    public long get(int i) {
      return sizes.get(i);
    }

    static long of(Node node, String name) {
      return node.image(name).map(ContainerImage::sizeBytes).orElse(-1L);
    }
  }

  /** The columns made so far; safe to share between threads, as images are. */
  private static final class LabelColumns {
    /** Null until made: how many nodes hold an image under each name (racing threads make equal ones). */
    private volatile PMap<String, Integer> imageHolders;
    /** -1 until known, then 1 when some node is cordoned, else 0 (racing threads compute the same). */
    private volatile int anyUnschedulable = -1;
    /** Null until made; racing threads make equal ones. Carried by every delta once made. */
    private volatile TaintClasses taintClasses;
    private final ConcurrentHashMap<String, LabelColumn> byKey =
        new ConcurrentHashMap<>();
    private final ConcurrentHashMap<String, ImageSizes> sizesByImage = new ConcurrentHashMap<>();

    /** The columns made so far, for the nodes with {@code info} added last. */
    LabelColumns added(NodeInfo info) {
      LabelColumns out = new LabelColumns();
      PMap<String, Integer> holders = imageHolders;
      out.imageHolders = holders == null ? null : holding(holders, info.node(), 1);
      int cordoned = anyUnschedulable;
      out.anyUnschedulable = cordoned == 0 ? (info.node().unschedulable() ? 1 : 0) : cordoned;
      TaintClasses classes = taintClasses;
      out.taintClasses = classes == null ? null : classes.added(info.node().taints());
      byKey.forEach((key, column) -> out.byKey.put(key, column.plus(info.node().labels().get(key).orElse(null))));
      sizesByImage.forEach((name, column) -> out.sizesByImage.put(name,
          new ImageSizes(column.sizes.append(ImageSizes.of(info.node(), name)))));
      return out;
    }

    /** The columns made so far, for the nodes without {@code gone}, the one at index {@code i}. */
    LabelColumns removed(int i, Node gone) {
      LabelColumns out = new LabelColumns();
      PMap<String, Integer> holders = imageHolders;
      out.imageHolders = holders == null ? null : holding(holders, gone, -1);
      out.anyUnschedulable = anyUnschedulable == 0 ? 0 : -1;
      TaintClasses classes = taintClasses;
      out.taintClasses = classes == null ? null : classes.removed(i);
      byKey.forEach((key, column) -> out.byKey.put(key, column.without(i)));
      sizesByImage.forEach((name, column) -> out.sizesByImage.put(name, new ImageSizes(column.sizes.without(i))));
      return out;
    }

    /** The columns made so far, for the nodes with {@code before}, the one at index {@code i}, changed to {@code after}. */
    LabelColumns replaced(int i, Node before, Node after) {
      LabelColumns out = new LabelColumns();
      // What the change left as it was stays: kubelets report images, Karpenter taints, apart from labels.
      if (before.labels().equals(after.labels())) {
        out.byKey.putAll(byKey);
      } else {
        // A relabelled node (Karpenter's registration, GFD's labels) changes one value of a column,
        // not the others: the column is copied with that value instead of read again from every node.
        byKey.forEach((key, column) -> {
          String value = after.labels().get(key).orElse(null);
          out.byKey.put(key, Objects.equals(value, column.get(i)) ? column : column.with(i, value));
        });
      }
      TaintClasses classes = taintClasses;
      out.taintClasses = classes == null ? null : classes.retainted(i, after.taints());
      if (before.unschedulable() == after.unschedulable()) {
        out.anyUnschedulable = anyUnschedulable;
      }
      PMap<String, Integer> holders = imageHolders;
      boolean sameImages = before.images().equals(after.images());
      if (holders != null && sameImages) {
        out.imageHolders = holders;
      } else if (holders != null) {
        out.imageHolders = holding(holding(holders, before, -1), after, 1);
      }
      if (sameImages) {
        out.sizesByImage.putAll(sizesByImage);
      } else {
        // A kubelet that reports a pulled image changes one value of the columns of the names it holds.
        sizesByImage.forEach((name, column) -> {
          long size = ImageSizes.of(after, name);
          out.sizesByImage.put(name, size == column.get(i) ? column : new ImageSizes(column.sizes.set(i, size)));
        });
      }
      return out;
    }

    /** {@code holders} with {@code node} counted once more ({@code sign} 1) or once less (-1) under each name it holds. */
    static PMap<String, Integer> holding(PMap<String, Integer> holders, Node node, int sign) {
      if (node.images().isEmpty()) {
        return holders;
      }
      Set<String> names = new HashSet<>();
      for (var image : node.images()) {
        names.addAll(image.names());
      }
      for (String name : names) {
        holders = SpreadCounts.add(holders, name, sign);
      }
      return holders;
    }
  }
}
