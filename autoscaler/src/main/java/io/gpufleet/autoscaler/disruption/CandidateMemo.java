package io.gpufleet.autoscaler.disruption;

import io.gpufleet.autoscaler.provisioning.Provisioner;
import io.gpufleet.autoscaler.state.ClusterView;
import io.gpufleet.autoscaler.state.NodeLog;
import io.gpufleet.autoscaler.state.PdbIndex;
import io.gpufleet.autoscaler.state.StateNode;
import io.gpufleet.autoscaler.termination.DoNotDisrupt;
import io.gpufleet.model.karpenter.NodePool;
import io.gpufleet.model.workload.DisruptionBudget;
import io.gpufleet.model.workload.PodDisruptionBudget;
import java.time.Instant;
import java.util.AbstractList;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.PriorityQueue;
import java.util.RandomAccess;
import java.util.Set;
import java.util.TreeMap;

/**
 * The candidate checks ({@link Candidates}) with each node's answer kept beside its state node. A
 * state node is an immutable value that the view reuses while the node, its NodeClaim and its pods
 * are unchanged; beyond it, the checks after the method's filter ({@link Candidates#blocked}) read
 * only its NodePool, the time (through duration-based do-not-disrupt) and the status of the PDBs
 * covering its pods. So the answer is kept while the NodePool is the same object, no protection's
 * duration ran out, the PDBs are the same objects and each PDB it read still blocks, or allows, as it
 * did. A poll then costs a lookup per node instead of a walk over its pods and their budgets, which
 * on a fleet of many small nodes with PDBs made most of each poll's cost (issue 33).
 *
 * <p>The facts of the last view's nodes are kept in its order ({@link #rows}); the next view is
 * matched to them by identity, position first, so a view that changed a few nodes costs a pointer
 * comparison for each other node and fresh facts only for those few (issue 33 item 7: the week
 * shape polls after every change, over nodes that mostly did not change). A view whose list
 * follows the last one's by the view builder's splices ({@link NodeLog}) is matched by applying them,
 * so the rows cost what changed; {@link #of} keeps each method filter's candidates and asks again
 * only about the rows that came, whose answer read a PDB that switched, or whose answer or filter
 * reads a time that has come ({@link Slot}); and {@link #nextChange} reads an index of the rows'
 * times. A poll that follows a change of a few nodes then visits those few (CandidateMemoTest).
 */
final class CandidateMemo {

  /**
   * An answer and what it read: the budget of each pod covered by exactly one (more than one blocks
   * whatever their status), with the status it had, and when a do-not-disrupt duration next ends.
   * {@link #checked} is the PDB status epoch it was last found to hold in: in the same epoch it holds.
   */
  static final class Answer {
    final Optional<String> blocked;
    final List<DisruptionBudget> read;
    final Instant until;
    long checked;

    Answer(Optional<String> blocked, List<DisruptionBudget> read, Instant until, long checked) {
      this.blocked = blocked;
      this.read = read;
      this.until = until;
      this.checked = checked;
    }
  }

  /** The facts of every state node the memo knows, by identity. */
  private final IdentityHashMap<StateNode, NodeFacts> facts = new IdentityHashMap<>();
  /** The facts of the last view's nodes, in its order, and the list of state nodes they follow. */
  private NodeFacts[] rows = new NodeFacts[0];
  private List<StateNode> rowsOf;
  /** The entry of the view builder's chain that {@link #rows} match; null when none. */
  private NodeLog rowsLog;
  private long generation;
  private ClusterView seen;
  private List<NodePool> pools;
  private PdbIndex pdbs;
  private List<PodDisruptionBudget> specs = List.of();
  /** Whether each PDB of the last index allows no disruption now. */
  private final IdentityHashMap<PodDisruptionBudget, Boolean> blocking = new IdentityHashMap<>();
  /**
   * Counts the PDB indexes in which some PDB came to block, or to allow, where the index before it did
   * not: an answer checked in the same epoch holds without looking at its PDBs again, since a new index
   * (each pod change makes one) mostly changes only how many disruptions PDBs allow, not whether any.
   */
  private long statusEpoch;
  /**
   * What changed in {@link #rows} since {@link #drain}: facts that came into the rows, facts that left
   * them, and PDBs that came to block or to allow; {@code full} when that is not known (a PDB set
   * changed, or more changed than the rows hold), so the reader must look at every row.
   */
  private List<NodeFacts> added = new ArrayList<>();
  private List<NodeFacts> left = new ArrayList<>();
  private List<PodDisruptionBudget> flips = new ArrayList<>();
  private boolean full = true;

  /** What changed in the rows since the last call (see {@link #added}); the first call says {@code full}. */
  record Changes(List<NodeFacts> added, List<NodeFacts> left, List<PodDisruptionBudget> flips, boolean full) {}

  Changes drain() {
    Changes out = new Changes(added, left, flips, full);
    added = new ArrayList<>();
    left = new ArrayList<>();
    flips = new ArrayList<>();
    full = false;
    return out;
  }

  /** Gives up the journal once it outgrows the rows: the reader then looks at every row. */
  private void bound() {
    if (added.size() + left.size() + flips.size() > 2 * rows.length + 64) {
      added.clear();
      left.clear();
      flips.clear();
      full = true;
    }
  }

  /** Nodes that may be disrupted now, among those {@code filter} admits, as {@link Candidates#of}. */
  List<Candidate> of(ClusterView view, boolean eventual, DisruptionMethod.Filter filter) {
    rows(view);
    if (filter instanceof NodeFacts.Filter ff) {
      Map<NodeFacts.Filter, Slot> kept = slots[eventual ? 1 : 0];
      Slot slot = kept.get(ff);
      if (slot == null) {
        slot = new Slot(ff, eventual);
        kept.put(ff, slot);
      }
      return slot.candidates(view);
    }
    List<Candidate> out = new ArrayList<>();
    for (NodeFacts f : rows) {
      if (rejection(f, view, eventual, filter).isEmpty()) {
        out.add(candidate(f));
      }
    }
    return Collections.unmodifiableList(out);
  }

  /**
   * A slot's candidates at one view, in the rows' order, that also hands over their ranking
   * ({@link Consolidation#sorted}'s order) as the slot follows it from view to view, so a view with few
   * changed candidates ranks them at the cost of those few (ConsolidationOrderTest).
   */
  static final class Listed extends AbstractList<Candidate> implements RandomAccess {
    private final List<Candidate> rows;
    private final Slot slot;
    private final long version;
    private List<Candidate> ranked;

    private Listed(List<Candidate> rows, Slot slot, long version) {
      this.rows = rows;
      this.slot = slot;
      this.version = version;
    }

    @Override
    public Candidate get(int index) {
      return rows.get(index);
    }

    @Override
    public int size() {
      return rows.size();
    }

    /** These candidates as {@link Consolidation#sorted} orders them; sorted afresh once the slot moved on. */
    List<Candidate> ranked() {
      if (ranked == null) {
        ranked = slot.version == version ? slot.ranked(this) : Collections.unmodifiableList(Consolidation.sorted(this));
      }
      return ranked;
    }
  }

  // ---- each method filter's candidates, followed from view to view ----

  /** The kept candidates of each filter that reads only facts, without and with {@code eventual}. */
  @SuppressWarnings("unchecked")
  private final Map<NodeFacts.Filter, Slot>[] slots = new Map[] {new IdentityHashMap<>(), new IdentityHashMap<>()};

  /**
   * What the rows' changes a {@link Slot} has not yet read: facts that came into the rows, moved or left
   * them (a {@link NodeFacts}), PDBs that came to block or to allow (a {@link PodDisruptionBudget}), and
   * {@link #RESET} where every answer was dropped. {@link #journalBase} is the position of its first entry.
   */
  private final List<Object> journal = new ArrayList<>();
  private long journalBase;
  private static final Object RESET = new Object();
  /** The rows were matched anew: kept facts may have moved. */
  private static final Object ORDER = new Object();

  private void note(Object entry) {
    journal.add(entry);
  }

  /** Drops the entries every slot has read; all of them where some slot lags far behind (it then looks at every row). */
  private void trim() {
    long end = journalBase + journal.size();
    long read = end;
    for (Map<NodeFacts.Filter, Slot> m : slots) {
      for (Slot slot : m.values()) {
        read = Math.min(read, Math.max(slot.cursor, journalBase));
      }
    }
    if (end - read > 4L * rows.length + 256) {
      read = end;
    }
    journal.subList(0, (int) (read - journalBase)).clear();
    journalBase = read;
  }

  /** A row's answer for a slot's filter, and until when, at the latest, it holds. */
  /** How many times a slot worked out a row's verdict, for tests of what following changes costs. */
  long asked;
  /** The last stamp a slot's list marked the facts it found touched with ({@link NodeFacts#mark}). */
  private long marks;

  private static final class Verdict {
    final NodeFacts facts;
    final boolean candidate;
    /** When the filter's or the answer's time comes (null: never); from then on it may differ. */
    final Instant until;
    /** The PDBs its answer read. */
    final List<PodDisruptionBudget> read;
    boolean current = true;

    Verdict(NodeFacts facts, boolean candidate, Instant until, List<PodDisruptionBudget> read) {
      this.facts = facts;
      this.candidate = candidate;
      this.until = until;
      this.read = read;
    }
  }

  /**
   * One filter's candidates (with or without {@code eventual}) kept across views. A row's verdict
   * reads its facts, the filter (which reads the time only through {@link NodeFacts#consolidatableBy},
   * so it turns at most at {@link NodeFacts#consolidatableAt}) and the kept answer ({@link #answer},
   * which holds until a duration it saw ends or a PDB it read switches). So a view asks again about the
   * rows the journal names, those whose time has come and those that read a PDB that switched; every
   * other row's verdict stands. Time going back, or a journal the slot fell behind, asks about every row.
   */
  private final class Slot {
    final NodeFacts.Filter filter;
    final boolean eventual;
    /** The journal position read up to; below {@link #journalBase}: none (every row is asked about). */
    long cursor = -1;
    Instant now;
    final IdentityHashMap<NodeFacts, Verdict> verdicts = new IdentityHashMap<>();
    final PriorityQueue<Verdict> timed = new PriorityQueue<>(Comparator.comparing((Verdict v) -> v.until));
    /** The verdicts whose answer read each PDB; some no longer current. */
    final IdentityHashMap<PodDisruptionBudget, List<Verdict>> readers = new IdentityHashMap<>();
    int registered;
    final Set<NodeFacts> candidates = Collections.newSetFromMap(new IdentityHashMap<>());
    /** The candidates in row order; null when to be made again. */
    Listed list;
    /**
     * The facts of {@link #list}'s candidates when it was last made, and those that came, left or may have
     * moved since: the next list is that one without them, merged with those still candidates; null when
     * the rows were matched anew (any may have moved) and the list is sorted afresh.
     */
    NodeFacts[] order;
    final List<NodeFacts> touched = new ArrayList<>();
    /** Counts the changes of the candidates: a {@link Listed} of an earlier count ranks itself afresh. */
    long version;
    /** The candidates in rank order, followed as they come and go; null until asked for, or after a reset. */
    Consolidation.Ranking ranking;
    ClusterView seen;

    Slot(NodeFacts.Filter filter, boolean eventual) {
      this.filter = filter;
      this.eventual = eventual;
    }

    List<Candidate> candidates(ClusterView view) {
      if (view != seen) {
        bring(view);
        seen = view;
      }
      if (list == null) {
        order = order == null || touched.size() > order.length / 2 ? sortedAfresh() : merged();
        touched.clear();
        Candidate[] out = new Candidate[order.length];
        for (int i = 0; i < out.length; i++) {
          out[i] = candidate(order[i]);
        }
        list = new Listed(Collections.unmodifiableList(Arrays.asList(out)), this, version);
      }
      return list;
    }

    private NodeFacts[] sortedAfresh() {
      NodeFacts[] in = candidates.toArray(NodeFacts[]::new);
      Arrays.sort(in, Comparator.comparingInt(f -> f.at));
      return in;
    }

    /**
     * The last list's facts without those touched since, merged by row with those of them still
     * candidates: the others kept their rows' order (a fact that moves is touched), and their rows
     * are those of now.
     */
    private NodeFacts[] merged() {
      long stamp = ++marks;
      List<NodeFacts> in = new ArrayList<>(touched.size());
      for (NodeFacts f : touched) {
        if (f.mark != stamp) {
          f.mark = stamp;
          if (candidates.contains(f)) {
            in.add(f);
          }
        }
      }
      in.sort(Comparator.comparingInt(f -> f.at));
      NodeFacts[] out = new NodeFacts[candidates.size()];
      int n = 0;
      int j = 0;
      for (NodeFacts f : order) {
        if (f.mark == stamp) {
          continue;
        }
        while (j < in.size() && in.get(j).at < f.at) {
          out[n++] = in.get(j++);
        }
        out[n++] = f;
      }
      while (j < in.size()) {
        out[n++] = in.get(j++);
      }
      return out;
    }

    /** The ranking of {@code now}, the slot's current list. */
    List<Candidate> ranked(Listed now) {
      if (ranking == null || ranking.broken()) {
        ranking = new Consolidation.Ranking(Consolidation.sorted(now));
        if (ranking.broken()) {
          return Collections.unmodifiableList(Consolidation.sorted(now));
        }
      }
      return ranking.list();
    }

    private void enter(NodeFacts f) {
      if (candidates.add(f)) {
        changed();
        touch(f);
        if (ranking != null) {
          ranking.add(candidate(f));
        }
      }
    }

    private void leave(NodeFacts f) {
      if (candidates.remove(f)) {
        changed();
        touch(f);
        if (ranking != null) {
          ranking.remove(candidate(f));
        }
      }
    }

    private void changed() {
      list = null;
      version++;
    }

    /** {@code f} came, left or may have moved: the next list looks at it. */
    private void touch(NodeFacts f) {
      list = null;
      if (order != null) {
        touched.add(f);
      }
    }

    private void bring(ClusterView view) {
      Instant t = view.now();
      long from = cursor;
      long end = journalBase + journal.size();
      boolean all = from < journalBase || now == null || t.isBefore(now);
      List<Object> unread = all ? List.of() : journal.subList((int) (from - journalBase), journal.size());
      all |= unread.contains(RESET);
      now = t;
      cursor = end;
      if (all) {
        verdicts.clear();
        timed.clear();
        readers.clear();
        registered = 0;
        candidates.clear();
        changed();
        ranking = null;
        order = null;
        touched.clear();
        for (NodeFacts f : rows) {
          ask(f, view);
        }
        return;
      }
      List<NodeFacts> due = new ArrayList<>();
      for (Object e : unread) {
        if (e instanceof NodeFacts f) {
          due.add(f);
        } else if (e == ORDER) {
          list = null;
          order = null;
          touched.clear();
        } else if (e instanceof PodDisruptionBudget b) {
          List<Verdict> read = readers.remove(b);
          if (read != null) {
            registered -= read.size();
            for (Verdict v : read) {
              if (v.current) {
                due.add(v.facts);
              }
            }
          }
        }
      }
      while (!timed.isEmpty() && !t.isBefore(timed.peek().until)) {
        Verdict v = timed.poll();
        if (v.current) {
          due.add(v.facts);
        }
      }
      for (NodeFacts f : due) {
        ask(f, view);
      }
      if (registered > 4 * verdicts.size() + 64 || timed.size() > 4 * verdicts.size() + 64) {
        // Stale entries (verdicts since replaced) outgrew the current ones: kept from the verdicts alone.
        readers.clear();
        registered = 0;
        timed.clear();
        for (Verdict v : verdicts.values()) {
          if (v.until != null) {
            timed.add(v);
          }
          for (PodDisruptionBudget b : v.read) {
            readers.computeIfAbsent(b, x -> new ArrayList<>()).add(v);
            registered++;
          }
        }
      }
    }

    /** Works out a row's verdict again (or drops it, for a row that left), keeping the candidates in step. */
    private void ask(NodeFacts f, ClusterView view) {
      asked++;
      Verdict old = verdicts.remove(f);
      if (old != null) {
        old.current = false;
        if (old.candidate) {
          touch(f); // it may have moved, or gone
        }
      }
      if (!listed(f)) {
        leave(f);
        return;
      }
      boolean candidate = false;
      Instant until = null;
      if (f.unmanaged.isEmpty()) {
        f.timeRead = false;
        boolean admitted = filter.admits(f, view.now());
        if (f.timeRead && f.consolidatableAt != null && view.now().isBefore(f.consolidatableAt)) {
          until = f.consolidatableAt;
        }
        if (admitted) {
          Answer a = answer(f, view, eventual);
          candidate = a.blocked.isEmpty();
          if (a.until != null && (until == null || a.until.isBefore(until))) {
            until = a.until;
          }
          List<PodDisruptionBudget> read = new ArrayList<>(a.read.size());
          for (DisruptionBudget e : a.read) {
            read.add(e.pdb());
          }
          Verdict v = new Verdict(f, candidate, until, read);
          for (PodDisruptionBudget b : read) {
            readers.computeIfAbsent(b, x -> new ArrayList<>()).add(v);
            registered++;
          }
          keep(v);
          return;
        }
      }
      keep(new Verdict(f, candidate, until, List.of()));
    }

    private void keep(Verdict v) {
      verdicts.put(v.facts, v);
      if (v.until != null) {
        timed.add(v);
      }
      if (v.candidate) {
        enter(v.facts);
      } else {
        leave(v.facts);
      }
    }
  }

  // ---- when a poll over an unchanged cluster may next change ----

  /** How many rows turn consolidatable at each instant, and the rows whose pods carry do-not-disrupt durations. */
  private final TreeMap<Instant, Integer> turning = new TreeMap<>();
  private final Set<NodeFacts> protectedRows = Collections.newSetFromMap(new IdentityHashMap<>());

  private void indexTimes(NodeFacts f, boolean add) {
    if (f.consolidatableAt == null) {
      return;
    }
    turning.merge(f.consolidatableAt, add ? 1 : -1, (a, b) -> a + b == 0 ? null : a + b);
    if (!add) {
      protectedRows.remove(f);
    } else if (DoNotDisrupt.nextExpiry(f.node, Instant.MIN).isPresent()) {
      protectedRows.add(f);
    }
  }

  /**
   * The first instant after now at which a row turns consolidatable or a do-not-disrupt duration of a
   * row that does ends, before {@code limit}: as a pass over every row would find it, from an index of
   * the rows' instants and the few rows with durations.
   */
  Instant nextChange(ClusterView view, Instant limit) {
    rows(view);
    Instant now = view.now();
    Instant next = limit;
    Instant t = turning.higherKey(now);
    if (t != null && t.isBefore(next)) {
      next = t;
    }
    for (NodeFacts f : protectedRows) {
      Optional<Instant> unprotected = f.nextProtectionEnd(now);
      if (unprotected.isPresent() && unprotected.get().isBefore(next)) {
        next = unprotected.get();
      }
    }
    return next;
  }

  /**
   * The candidate of NodeClaim {@code claim}, as {@link #of} would list it, without answering for every
   * other node; empty when it is none.
   */
  Optional<Candidate> candidate(ClusterView view, String claim, boolean eventual, DisruptionMethod.Filter filter) {
    rows(view);
    Optional<StateNode> n = view.node(claim);
    if (n.isEmpty()) {
      return Optional.empty(); // no node of the view has it: not among the rows
    }
    if (n.get().claim().map(c -> !c.name().equals(claim)).orElse(true)) {
      // The name is a node's, not this claim's: look among every candidate, as a list by claim would.
      return of(view, eventual, filter).stream().filter(c -> c.name().equals(claim)).findFirst();
    }
    NodeFacts f = facts.get(n.get());
    if (f == null || !listed(f)) {
      return Optional.empty();
    }
    return rejection(f, view, eventual, filter).isEmpty() ? Optional.of(candidate(f)) : Optional.empty();
  }

  /** Why {@code n} is not a candidate for a method with {@code filter}; empty when it is one. */
  Optional<String> rejection(StateNode n, ClusterView view, boolean eventual, DisruptionMethod.Filter filter) {
    rows(view);
    NodeFacts f = facts.get(n);
    if (f == null) { // not one of the view's nodes: asked afresh
      f = fresh(n, view);
    }
    return rejection(f, view, eventual, filter);
  }

  /** As {@link #rejection(StateNode, ClusterView, boolean, DisruptionMethod.Filter)}, of facts of the view's nodes. */
  Optional<String> rejection(NodeFacts f, ClusterView view, boolean eventual, DisruptionMethod.Filter filter) {
    if (f.unmanaged.isPresent()) {
      return f.unmanaged;
    }
    if (!f.admittedBy(filter, view.now())) {
      return Optional.of(Candidates.FILTERED);
    }
    return answer(f, view, eventual).blocked;
  }

  /** Whether {@code f} is among the facts of the last view {@link #rows} was asked about. */
  boolean listed(NodeFacts f) {
    return f.listed == generation;
  }

  /** The kept answer of {@link Candidates#blocked} for a managed node, worked out again when it may have changed. */
  Answer answer(NodeFacts f, ClusterView view, boolean eventual) {
    int slot = eventual ? 1 : 0;
    Answer a = f.answers[slot];
    if (a != null && !holds(a, view.now())) {
      // A PDB that switched mostly switches back: the answer before this one holds again when every
      // PDB it read has the status it read and no duration it saw has ended (the facts are the same).
      Answer before = f.before[slot];
      f.before[slot] = a;
      a = before != null && holds(before, view.now()) ? before : null;
      f.answers[slot] = a;
    }
    if (a == null) {
      List<DisruptionBudget> read = new ArrayList<>();
      Optional<String> blocked = Candidates.blocked(f.node, f.nodeBlocked(), f.pool, view, eventual, covering -> {
        if (covering.size() == 1) {
          read.add(covering.getFirst());
        }
      });
      a = new Answer(blocked, List.copyOf(read), DoNotDisrupt.nextExpiry(f.node, view.now()).orElse(null),
          statusEpoch);
      f.answers[slot] = a;
    }
    return a;
  }

  /** {@code f}, which passed the checks, as a candidate. */
  Candidate candidate(NodeFacts f) {
    if (f.candidate == null) {
      f.candidate = Candidates.candidate(f.node, f.pool);
    }
    return f.candidate;
  }

  private boolean holds(Answer a, Instant now) {
    if (a.until != null && !now.isBefore(a.until)) {
      return false;
    }
    if (a.checked == statusEpoch) {
      return true; // the statuses it was checked against are those of now
    }
    for (DisruptionBudget e : a.read) {
      Boolean now0 = blocking.get(e.pdb());
      if (now0 == null || now0 != (e.disruptionsAllowed() <= 0)) {
        return false;
      }
    }
    a.checked = statusEpoch;
    return true;
  }

  /**
   * The facts of {@code view}'s nodes in its order, brought from the last view's: the PDBs' status
   * read afresh, every answer dropped when a PDB came, went or changed (which pods it covers may
   * have), facts made anew for a node whose state node or NodePool object is new, and those of nodes
   * no longer in the view let go. A list that follows the last one by the view builder's splices
   * ({@link NodeLog}) is brought by applying them; any other is matched node by node.
   */
  NodeFacts[] rows(ClusterView view) {
    if (view == seen) {
      return rows;
    }
    seen = view;
    if (view.pdbs() != pdbs) {
      pdbs = view.pdbs();
      List<PodDisruptionBudget> now = new ArrayList<>(pdbs.entries().size());
      for (DisruptionBudget e : pdbs.entries()) {
        now.add(e.pdb());
      }
      if (!Provisioner.sameObjects(now, specs)) {
        facts.clear();
        rows = new NodeFacts[0];
        rowsOf = null;
        rowsLog = null;
        blocking.clear();
        statusEpoch++;
        full = true;
        note(RESET);
      }
      boolean flipped = false;
      for (DisruptionBudget e : pdbs.entries()) {
        Boolean was = blocking.put(e.pdb(), e.disruptionsAllowed() <= 0);
        if (was == null || was != (e.disruptionsAllowed() <= 0)) {
          flipped = true;
          if (!full) {
            flips.add(e.pdb());
          }
          note(e.pdb());
        }
      }
      if (flipped) {
        statusEpoch++;
      }
      specs = now;
    }
    boolean samePools = pools != null && Provisioner.sameObjects(view.nodePools(), pools);
    pools = view.nodePools();
    List<StateNode> nodes = view.nodes();
    if (nodes == rowsOf && samePools) {
      rowsLog = view.nodeLog();
      return rows; // the very list of state nodes (the view builder keeps it while no node changed)
    }
    if (!samePools || rowsOf == null || !follow(view.nodeLog(), view)) {
      match(view, samePools);
    }
    rowsOf = nodes;
    rowsLog = view.nodeLog();
    if (!full) {
      bound();
    }
    trim();
    return rows;
  }

  /**
   * Brings {@link #rows} along the view builder's splices from {@link #rowsLog} to {@code to}; false,
   * changing nothing, when {@code to} is not on that chain within a bound (more splices than a match
   * of every node would cost).
   */
  private boolean follow(NodeLog to, ClusterView view) {
    if (rowsLog == null || to == null) {
      return false;
    }
    List<NodeLog> path = rowsLog.pathTo(to, rows.length, view.nodes().size());
    if (path == null) {
      return false;
    }
    if (path.isEmpty()) {
      return true; // no splice since: the same nodes in another list object
    }
    List<NodeFacts> list = new ArrayList<>(Arrays.asList(rows));
    List<NodeFacts> out = new ArrayList<>();
    List<NodeFacts> in = new ArrayList<>();
    int first = list.size();
    for (NodeLog e : path) {
      first = Math.min(first, e.at());
    }
    NodeLog.apply(path, list, n -> {
      NodeFacts f = facts.get(n); // a state node put back (a group reordered) keeps its facts
      if (f == null) {
        f = fresh(n, view);
        facts.put(n, f);
        if (!full) {
          added.add(f);
        }
        indexTimes(f, true);
      }
      f.listed = generation;
      in.add(f);
      return f;
    }, f -> {
      f.listed = 0;
      out.add(f);
    });
    for (NodeFacts f : out) {
      if (f.listed != generation) {
        letGo(f);
        indexTimes(f, false);
      }
    }
    for (NodeFacts f : in) {
      note(f);
    }
    rows = list.toArray(NodeFacts[]::new);
    for (int i = first; i < rows.length; i++) {
      rows[i].at = i;
    }
    return true;
  }

  /** Matches {@code view}'s list node by node to the last rows, by identity, position first. */
  private void match(ClusterView view, boolean samePools) {
    List<StateNode> nodes = view.nodes();
    NodeFacts[] before = rows;
    NodeFacts[] next = new NodeFacts[nodes.size()];
    long gen = ++generation;
    boolean changed = before.length != next.length;
    int shift = 0; // where the last view's order continues: a node that came or went shifts the rest
    for (int i = 0; i < next.length; i++) {
      StateNode n = nodes.get(i);
      int j = i + shift;
      NodeFacts f = j < before.length && before[j].node == n ? before[j] : facts.get(n);
      if (f != null) {
        shift = f.at - i;
        f.at = i;
      }
      if (f != null && !samePools && f.pool != poolOf(n, view)) {
        f = null;
      }
      if (f == null) {
        f = fresh(n, view);
        f.at = i;
        facts.put(n, f);
        if (!full) {
          added.add(f);
        }
        note(f);
      }
      changed |= i >= before.length || f != before[i];
      f.listed = gen;
      next[i] = f;
    }
    if (changed) {
      for (NodeFacts f : before) {
        if (f.listed != gen) {
          letGo(f);
        }
      }
    }
    rows = next;
    turning.clear();
    protectedRows.clear();
    for (NodeFacts f : rows) {
      indexTimes(f, true);
    }
    note(ORDER);
  }

  /** Lets go of facts that left the rows, noting it for {@link #drain} and the slots. */
  private void letGo(NodeFacts f) {
    if (facts.get(f.node) == f) {
      facts.remove(f.node);
    }
    if (!full) {
      left.add(f);
    }
    note(f);
  }

  private static NodePool poolOf(StateNode n, ClusterView view) {
    return n.claim().flatMap(c -> view.nodePool(c.nodePool())).orElse(null);
  }

  private static NodeFacts fresh(StateNode n, ClusterView view) {
    NodeFacts f = new NodeFacts(n, poolOf(n, view));
    f.unmanaged = Candidates.nodeRejection(n, view);
    return f;
  }
}
