package io.gpufleet.engine.scheduler;

import io.gpufleet.engine.scheduler.plugin.FilterPlugin;
import io.gpufleet.engine.scheduler.plugin.PostFilterPlugin;
import io.gpufleet.engine.scheduler.plugin.PreFilterPlugin;
import io.gpufleet.engine.scheduler.plugin.ScorePlugin;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.random.RandomGenerator;

/**
 * One scheduling cycle of kube-scheduler for one pod: PreFilter (which may reject the pod or narrow
 * the candidates to named nodes), filter the candidates (each node stops at its
 * first failing plugin), stop once enough feasible nodes are found, score them with every
 * applicable plugin (normalised, weighted, summed), and pick the best, breaking ties uniformly
 * at random with the caller's seeded generator (reservoir sampling, as {@code selectHost}).
 *
 * <p>Pure: the snapshot is not changed; the caller binds. The caller also keeps the rotating start
 * index ({@code nextStartNodeIndex}) by adding {@link ScheduleResult#evaluatedNodes()}. A caller that
 * schedules many pods over images derived one from another may pass a {@link FilterMemo}, its own,
 * which the cycle reads and fills: the answers are the same, the nodes unchanged since a pod of the
 * same spec was scheduled are not filtered or scored again by the node-local plugins.
 */
public final class Scheduler {

  private final SchedulerProfile profile;
  /** The profile's node-local filters ({@link FilterPlugin#nodeLocal}), in order: what a {@link FilterMemo} numbers. */
  private final List<FilterPlugin> nodeLocal;
  /** Each score plugin's number among the node-local scorers ({@link ScorePlugin#scoresNodeLocal}), -1 for the others. */
  private final int[] localScorer;
  private final List<ScorePlugin> localScorers;

  public Scheduler(SchedulerProfile profile) {
    this.profile = profile;
    this.nodeLocal = profile.filters().stream().filter(FilterPlugin::nodeLocal).toList();
    List<ScorePlugin> scorers = new ArrayList<>();
    localScorer = new int[profile.scores().size()];
    for (int p = 0; p < localScorer.length; p++) {
      ScorePlugin plugin = profile.scores().get(p).plugin();
      localScorer[p] = plugin.scoresNodeLocal() ? scorers.size() : -1;
      if (plugin.scoresNodeLocal()) {
        scorers.add(plugin);
      }
    }
    this.localScorers = List.copyOf(scorers);
  }

  public SchedulerProfile profile() {
    return profile;
  }

  public ScheduleResult schedule(PodInfo pod, ClusterSnapshot snapshot, RandomGenerator random) {
    return schedule(pod, snapshot, random, 0, false);
  }

  public ScheduleResult schedule(
      PodInfo pod, ClusterSnapshot snapshot, RandomGenerator random, int startIndex, boolean explain) {
    return schedule(pod, snapshot, random, startIndex, explain, null);
  }

  /**
   * As above, with node-local filter verdicts read from and kept in {@code memo} (null: none) where
   * the cycle's filters are all node-local: the same nodes evaluated, with the same answers.
   */
  public ScheduleResult schedule(PodInfo pod, ClusterSnapshot snapshot, RandomGenerator random, int startIndex,
      boolean explain, FilterMemo memo) {
    int all = snapshot.size();
    if (all == 0) {
      return new ScheduleResult.Unschedulable(new FitError(0, Map.of(), ""), 0);
    }
    // PreFilter: a plugin may reject the pod for every node, or narrow the candidates to named nodes.
    int[] candidates = null;
    Status absent = null;
    for (PreFilterPlugin pf : profile.preFilters()) {
      // instanceof, not a pattern switch, which would make a class at run time on first use; these
      // and AllNodes (nothing to do) are all Result permits (SealedBranchesTest).
      PreFilterPlugin.Result result = pf.preFilter(pod, snapshot);
      if (result instanceof PreFilterPlugin.Result.Rejected r) {
        return postFilter(pod, snapshot, new FitError(all, Map.of(),
            Optional.of(r.status()), r.status().reasons().getFirst(), ""), 0, explain);
      } else if (result instanceof PreFilterPlugin.Result.NodeNames names) {
        candidates = narrow(snapshot, candidates, names.names());
        absent = Status.unresolvable(pf.pluginName(), "node(s) didn't satisfy plugin(s) [" + pf.pluginName() + "]");
      }
    }
    int n = candidates == null ? all : candidates.length;
    if (n == 0) {
      return postFilter(pod, snapshot, new FitError(all, Map.of(), Optional.of(absent), "", ""), 0, explain);
    }
    int want = profile.feasibleNodesToFind(n);
    int cap = Math.min(want, n);
    int[] feasible = new int[cap];
    int found = 0;
    int evaluated = 0;
    FilterPlugin[] filters;
    // Each cycle filter's number among the node-local filters, while a memo serves this cycle.
    int[] local = null;
    FilterMemo.Verdicts verdicts = null;
    if (memo == null) {
      filters = FilterPlugin.forCycle(profile.filters(), pod, snapshot);
    } else {
      // The calls FilterPlugin.forCycle makes, in its order, noting which filters are node-local.
      List<FilterPlugin> profiled = profile.filters();
      filters = new FilterPlugin[profiled.size()];
      local = new int[profiled.size()];
      int active = 0;
      int number = 0;
      boolean nodeLocalOnly = true;
      for (FilterPlugin f : profiled) {
        Optional<FilterPlugin> cycle = f.forCycle(pod, snapshot);
        if (cycle.isPresent()) {
          filters[active] = cycle.get();
          local[active++] = f.nodeLocal() ? number : -1;
          nodeLocalOnly &= f.nodeLocal();
        }
        if (f.nodeLocal()) {
          number++;
        }
      }
      filters = Arrays.copyOf(filters, active);
      if (nodeLocalOnly) {
        verdicts = memo.of(nodeLocal, localScorers, pod);
        verdicts.cover(snapshot);
        if (candidates == null) {
          // Every node failed this class on this very image before: each would be read from the
          // memo and fail again, with the same statuses, so the same error stands, all nodes evaluated.
          FitError failed = verdicts.failure(snapshot);
          if (failed != null) {
            return postFilter(pod, snapshot, failed, n, explain);
          }
        }
      }
    }
    List<SchedulerProfile.WeightedScore> scorers = profile.scores();
    int plugins = scorers.size();
    ScorePlugin[] scoring = new ScorePlugin[plugins];
    for (int p = 0; p < plugins; p++) {
      scoring[p] = scorers.get(p).plugin().preScore(pod, snapshot).orElse(null);
    }
    int position = startIndex % n;
    if (verdicts != null && candidates == null) {
      // Every node is a candidate: the memo's chunk masks give the passing nodes in the rotating order,
      // each chunk of nodes unchanged since its mask read as one word. The filters decide only the nodes
      // no verdict was kept for, as the batches below do otherwise; those decide fewer where enough pass
      // early, but a verdict is the same whenever it is made.
      settle(filters, local, verdicts, pod, snapshot);
      found = passing(verdicts, position, n, want, feasible);
      evaluated = found < want ? n : (feasible[found - 1] - position + n) % n + 1;
    }
    // Filter in batches, in the rotating order ((startIndex + k) % n), each plugin over the whole
    // batch in one call: a node is kept only if every plugin passes it, as when each node stops at
    // its first failing plugin. A batch is as large as the feasible nodes still wanted, so with
    // every node scored it is all of them; past the node that completes the wanted count the
    // per-node loop would have stopped, so the rest of that batch is not counted as evaluated.
    int[] batch = evaluated < n && found < want ? new int[Math.min(n, Math.max(want, MIN_BATCH))] : null;
    int[] order = batch == null ? null : new int[batch.length];
    int[] misses = verdicts == null || batch == null ? null : new int[batch.length];
    while (evaluated < n && found < want) {
      int size = Math.min(n - evaluated, Math.max(want - found, MIN_BATCH));
      for (int j = 0; j < size; j++) {
        order[j] = candidates == null ? position : candidates[position];
        if (++position == n) {
          position = 0;
        }
      }
      System.arraycopy(order, 0, batch, 0, size);
      int kept = size;
      if (verdicts == null) {
        for (int f = 0; f < filters.length && kept > 0; f++) {
          kept = filters[f].filterAll(pod, snapshot, batch, kept);
        }
      } else {
        kept = filterRemembered(filters, local, verdicts, pod, snapshot, batch, size, misses);
      }
      int take = Math.min(kept, want - found);
      System.arraycopy(batch, 0, feasible, found, take);
      found += take;
      evaluated += found == want ? positionOf(order, batch, take) + 1 : size;
    }
    if (found == 0) {
      // Only now are the statuses needed: every candidate was evaluated and failed.
      Status[] failures = verdicts == null ? firstFailures(filters, pod, snapshot, candidates, n)
          : rememberedFailures(filters, local, verdicts, pod, snapshot, candidates, n);
      FitError error = FitError.ofCycle(snapshot, failures, evaluated, Optional.ofNullable(absent));
      if (verdicts != null && candidates == null) {
        verdicts.failed(snapshot, error);
      }
      return postFilter(pod, snapshot, error, evaluated, explain);
    }
    if (found == 1 && !explain) {
      // kube-scheduler skips scoring when only one node is feasible.
      return new ScheduleResult.Scheduled(snapshot.get(feasible[0]).name(), 0, 1, evaluated, List.of());
    }
    // Raw scores, one plugin over every feasible node at a time; each normalises its own column, which
    // is then weighted into the totals. kube-scheduler scores with every plugin before normalising any,
    // but a plugin's normalisation reads only its own column and state, so each is scored and
    // normalised in turn here, in one array; only --explain keeps every plugin's weighted column.
    long[][] perPlugin = explain ? new long[plugins][] : null;
    long[] column = explain ? null : new long[found];
    long[] total = new long[found];
    for (int p = 0; p < plugins; p++) {
      if (scoring[p] == null) {
        continue;
      }
      long[] scores = explain ? (perPlugin[p] = new long[found]) : column;
      if (verdicts != null && localScorer[p] >= 0) {
        verdicts.scoreAll(localScorer[p], scoring[p], pod, snapshot, feasible, found, scores);
      } else {
        scoring[p].scoreAll(pod, snapshot, feasible, found, scores);
      }
      scoring[p].normalize(pod, scores);
      long weight = scorers.get(p).weight();
      if (explain) {
        for (int j = 0; j < found; j++) {
          scores[j] *= weight;
          total[j] += scores[j];
        }
      } else {
        for (int j = 0; j < found; j++) {
          total[j] += scores[j] * weight;
        }
      }
    }
    int best = 0;
    int ties = 1;
    for (int j = 1; j < found; j++) {
      if (total[j] > total[best]) {
        best = j;
        ties = 1;
      } else if (total[j] == total[best]) {
        ties++;
        if (random.nextInt(ties) == 0) {
          best = j;
        }
      }
    }
    List<ScheduleResult.NodeScore> ranking = explain ? ranking(snapshot, feasible, total, perPlugin, found) : List.of();
    return new ScheduleResult.Scheduled(snapshot.get(feasible[best]).name(), total[best], found, evaluated, ranking);
  }

  /** The smallest filter batch: a few nodes more than wanted cost less than a call per plugin per node. */
  private static final int MIN_BATCH = 64;

  /** The position in {@code order} of the {@code take}-th of the kept nodes, an ordered subsequence of it. */
  private static int positionOf(int[] order, int[] kept, int take) {
    int s = 0;
    for (int j = 0; ; j++) {
      if (order[j] == kept[s] && ++s == take) {
        return j;
      }
    }
  }

  /**
   * Each candidate's status from the first filter that rejects it, as the per-node cycle records
   * it ({@code null} for the nodes not among the candidates), when none passed every filter. The
   * filters' batch calls run again over all candidates, each node dropping out at the plugin that
   * rejects it, and only that plugin is asked for the node's status ({@link FilterPlugin#rejections});
   * the last filter is not run again, since every node that reaches it must fail it:
   * asking every filter in turn, node by node, ran each plain check the node passes too, on every
   * node of the fleet for every Pending pod retried.
   */
  private static Status[] firstFailures(FilterPlugin[] filters, PodInfo pod, ClusterSnapshot snapshot,
      int[] candidates, int n) {
    Status[] failures = new Status[snapshot.size()];
    int[] left = new int[n];
    for (int k = 0; k < n; k++) {
      left[k] = candidates == null ? k : candidates[k];
    }
    int[] before = new int[n];
    int[] dropped = new int[n];
    int count = n;
    for (int f = 0; f < filters.length && count > 0; f++) {
      if (f == filters.length - 1) {
        // No candidate passed every filter, so the last rejects every node the others passed: it is
        // not run over them again before it is asked why (each rejections call checks it rejects).
        filters[f].rejections(pod, snapshot, left, count, failures);
        count = 0;
        break;
      }
      System.arraycopy(left, 0, before, 0, count);
      int kept = filters[f].filterAll(pod, snapshot, left, count);
      int d = dropped(before, count, left, kept, dropped);
      if (d > 0) {
        filters[f].rejections(pod, snapshot, dropped, d, failures);
      }
      count = kept;
    }
    if (count > 0) {
      throw new IllegalStateException("node " + snapshot.get(left[0]).name() + " passes every filter it failed before");
    }
    return failures;
  }

  /**
   * The nodes of {@code before[0..count)} missing from {@code kept[0..keptCount)}, an ordered
   * subsequence of them (those a filter's batch call kept), into {@code out}; returns how many.
   */
  private static int dropped(int[] before, int count, int[] kept, int keptCount, int[] out) {
    int d = 0;
    for (int j = 0, s = 0; j < count; j++) {
      if (s < keptCount && kept[s] == before[j]) {
        s++;
      } else {
        out[d++] = before[j];
      }
    }
    return d;
  }

  /**
   * The memo's filter pass over a batch: the nodes whose NodeInfo changed since the spec's verdicts
   * were taken are decided by the cycle's filters (each node's first failing filter noted), then the
   * batch keeps, in order, the nodes whose verdict is a pass, as the filters' own pass would.
   */
  private static int filterRemembered(FilterPlugin[] filters, int[] local, FilterMemo.Verdicts verdicts, PodInfo pod,
      ClusterSnapshot snapshot, int[] batch, int size, int[] misses) {
    int missed = 0;
    for (int j = 0; j < size; j++) {
      if (!verdicts.known(snapshot, batch[j])) {
        misses[missed++] = batch[j];
      }
    }
    if (missed > 0) {
      decide(filters, local, verdicts, pod, snapshot, misses, missed);
    }
    int kept = 0;
    for (int j = 0; j < size; j++) {
      int i = batch[j];
      if (verdicts.verdict(snapshot, i) == FilterMemo.Verdicts.PASSED) {
        batch[kept++] = i;
      }
    }
    return kept;
  }

  /**
   * Brings every chunk mask of {@code verdicts} up to {@code snapshot}. A chunk that is not the object its
   * mask was taken from keeps the bit of each position that holds the NodeInfo it held then, or the one
   * the next position held (a node removed before it moved the chunk down one): a verdict depends on the
   * NodeInfo alone. Only the other positions are read, their nodes decided where no verdict is kept.
   */
  private static void settle(FilterPlugin[] filters, int[] local, FilterMemo.Verdicts verdicts, PodInfo pod,
      ClusterSnapshot snapshot) {
    int n = snapshot.size();
    int chunks = (n + ChunkedArray.MASK) >>> ChunkedArray.SHIFT;
    verdicts.coverChunks(chunks);
    int[] stale = null;
    long[] kept = null;
    long[] redo = null;
    int staleCount = 0;
    int[] misses = null;
    int missed = 0;
    for (int c = 0; c < chunks; c++) {
      if (verdicts.masked(snapshot, c)) {
        continue;
      }
      if (stale == null) {
        stale = new int[chunks - c];
        kept = new long[stale.length];
        redo = new long[stale.length];
        misses = new int[n - (c << ChunkedArray.SHIFT)];
      }
      int base = c << ChunkedArray.SHIFT;
      int size = Math.min(n - base, ChunkedArray.SIZE);
      Object[] now = (Object[]) snapshot.nodeChunk(c);
      long same = 0;
      long moved = 0;
      if (verdicts.maskedChunk(c) instanceof Object[] before) {
        for (int k = 0; k < size; k++) {
          Object node = now[k];
          if (node == before[k]) {
            same |= 1L << k;
          } else if (k + 1 < ChunkedArray.SIZE && node == before[k + 1]) {
            moved |= 1L << k;
          }
        }
      }
      long mask = verdicts.passing(c);
      long all = size == ChunkedArray.SIZE ? -1L : (1L << size) - 1;
      long changed = all & ~(same | moved);
      stale[staleCount] = c;
      kept[staleCount] = (mask & same) | ((mask >>> 1) & moved);
      redo[staleCount++] = changed;
      for (long bits = changed; bits != 0; bits &= bits - 1) {
        int i = base + Long.numberOfTrailingZeros(bits);
        if (!verdicts.known(snapshot, i)) {
          misses[missed++] = i;
        }
      }
    }
    if (missed > 0) {
      decide(filters, local, verdicts, pod, snapshot, misses, missed);
    }
    for (int k = 0; k < staleCount; k++) {
      int base = stale[k] << ChunkedArray.SHIFT;
      long passing = kept[k];
      for (long bits = redo[k]; bits != 0; bits &= bits - 1) {
        int b = Long.numberOfTrailingZeros(bits);
        if (verdicts.verdict(snapshot, base + b) == FilterMemo.Verdicts.PASSED) {
          passing |= 1L << b;
        }
      }
      verdicts.mask(snapshot, stale[k], passing);
    }
  }

  /**
   * The first {@code want} passing positions (or all, if fewer pass) in the rotating order from
   * {@code start} ({@code start}, ..., {@code n - 1}, {@code 0}, ..., {@code start - 1}), read off the
   * settled chunk masks into {@code feasible}; returns how many.
   */
  private static int passing(FilterMemo.Verdicts verdicts, int start, int n, int want, int[] feasible) {
    int found = 0;
    for (int lap = 0; lap < 2 && found < want; lap++) {
      int to = lap == 0 ? n : start;
      for (int i = lap == 0 ? start : 0; i < to && found < want; ) {
        int c = i >>> ChunkedArray.SHIFT;
        int chunkEnd = (c + 1) << ChunkedArray.SHIFT;
        long bits = verdicts.passing(c) & (-1L << (i & ChunkedArray.MASK));
        if (to < chunkEnd) {
          bits &= (1L << (to & ChunkedArray.MASK)) - 1;
        }
        while (bits != 0 && found < want) {
          feasible[found++] = (c << ChunkedArray.SHIFT) | Long.numberOfTrailingZeros(bits);
          bits &= bits - 1;
        }
        i = chunkEnd;
      }
    }
    return found;
  }

  /** Runs the cycle's filters over {@code nodes[0..count)} (reordered), noting in the memo where each node drops out. */
  private static void decide(FilterPlugin[] filters, int[] local, FilterMemo.Verdicts verdicts, PodInfo pod,
      ClusterSnapshot snapshot, int[] nodes, int count) {
    int[] before = new int[count];
    int[] dropped = new int[count];
    for (int f = 0; f < filters.length && count > 0; f++) {
      System.arraycopy(nodes, 0, before, 0, count);
      int kept = filters[f].filterAll(pod, snapshot, nodes, count);
      int d = dropped(before, count, nodes, kept, dropped);
      for (int j = 0; j < d; j++) {
        verdicts.decided(snapshot, dropped[j], local[f]);
      }
      count = kept;
    }
    for (int j = 0; j < count; j++) {
      verdicts.decided(snapshot, nodes[j], FilterMemo.Verdicts.PASSED);
    }
  }

  /**
   * {@link #firstFailures} from the memo: every candidate was decided this cycle and failed; the
   * statuses not kept yet are asked of the filter that rejected each node ({@link FilterPlugin#rejections},
   * a batch per filter) and kept.
   */
  private static Status[] rememberedFailures(FilterPlugin[] filters, int[] local, FilterMemo.Verdicts verdicts,
      PodInfo pod, ClusterSnapshot snapshot, int[] candidates, int n) {
    Status[] failures = new Status[snapshot.size()];
    int[] unexplained = new int[n];
    int count = 0;
    for (int k = 0; k < n; k++) {
      int i = candidates == null ? k : candidates[k];
      Status s = verdicts.status(snapshot, i);
      if (s != null) {
        failures[i] = s;
      } else {
        unexplained[count++] = i;
      }
    }
    if (count == 0) {
      return failures;
    }
    int[] group = new int[count];
    for (int f = 0; f < filters.length; f++) {
      int g = 0;
      for (int j = 0; j < count; j++) {
        if (verdicts.verdict(snapshot, unexplained[j]) == local[f]) {
          group[g++] = unexplained[j];
        }
      }
      if (g > 0) {
        filters[f].rejections(pod, snapshot, group, g, failures);
        for (int j = 0; j < g; j++) {
          verdicts.explained(snapshot, group[j], failures[group[j]]);
          failures[group[j]] = verdicts.status(snapshot, group[j]);
        }
      }
    }
    for (int j = 0; j < count; j++) {
      if (failures[unexplained[j]] == null) {
        throw new IllegalStateException("node " + snapshot.get(unexplained[j]).name()
            + " failed a filter this cycle does not run");
      }
    }
    return failures;
  }

  /**
   * PostFilter (preemption): the first plugin that nominates a node ends the cycle; else the plugins'
   * messages are kept, joined. The per-node statuses serve PostFilter only; past it they stay with the result only when
   * explained, so a Pending pod on a large fleet keeps a few counts.
   */
  private ScheduleResult.Unschedulable postFilter(PodInfo pod, ClusterSnapshot snapshot, FitError error,
      int evaluated, boolean explain) {
    for (PostFilterPlugin p : profile.postFilters()) {
      PostFilterPlugin.Result r = p.postFilter(pod, snapshot, error);
      // Upstream joins the plugins' reasons with ", " (RunPostFilterPlugins, then Status.Message).
      String before = error.postFilterMessage();
      error = error.withPostFilterMessage(before.isEmpty() ? r.message()
          : r.message().isEmpty() ? before : before + ", " + r.message());
      if (r.nominatedNode().isPresent()) {
        return new ScheduleResult.Unschedulable(explain ? error : error.withoutNodeStatuses(), evaluated,
            r.nominatedNode(), r.victims());
      }
    }
    return new ScheduleResult.Unschedulable(explain ? error : error.withoutNodeStatuses(), evaluated);
  }

  /** The snapshot indices of the named nodes (within {@code previous} when set), in snapshot order. */
  private static int[] narrow(ClusterSnapshot snapshot, int[] previous, Set<String> names) {
    int[] out = new int[Math.min(names.size(), snapshot.size())];
    int k = 0;
    if (previous == null) {
      for (int i = 0; i < snapshot.size(); i++) {
        if (names.contains(snapshot.get(i).name())) {
          out[k++] = i;
        }
      }
    } else {
      for (int i : previous) {
        if (names.contains(snapshot.get(i).name())) {
          out[k++] = i;
        }
      }
    }
    return Arrays.copyOf(out, k);
  }

  private List<ScheduleResult.NodeScore> ranking(
      ClusterSnapshot snapshot, int[] feasible, long[] total, long[][] perPlugin, int found) {
    List<Integer> order = new ArrayList<>();
    for (int j = 0; j < found; j++) {
      order.add(j);
    }
    order.sort((a, b) -> total[a] != total[b] ? Long.compare(total[b], total[a])
        : snapshot.get(feasible[a]).name().compareTo(snapshot.get(feasible[b]).name()));
    List<ScheduleResult.NodeScore> out = new ArrayList<>();
    for (int j : order.subList(0, Math.min(5, found))) {
      List<ScheduleResult.PluginScore> parts = new ArrayList<>();
      for (int p = 0; p < perPlugin.length; p++) {
        if (perPlugin[p] != null) {
          parts.add(new ScheduleResult.PluginScore(profile.scores().get(p).plugin().pluginName(), perPlugin[p][j]));
        }
      }
      out.add(new ScheduleResult.NodeScore(snapshot.get(feasible[j]).name(), total[j], parts));
    }
    return out;
  }
}
