"""How the cuBLAS anchors in scripts/ time a product: `rep` calls of `step` captured in one CUDA graph, the graph
replayed 3 times to warm up and then 15 times between CUDA events; the median replay divided by `rep`, in us.
The caller warms `step` up on a side stream (and checks its result) before."""


def median_graph_us(torch, step, rep):
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        for _ in range(rep):
            step()
    for _ in range(3):
        graph.replay()
    torch.cuda.synchronize()
    times = []
    for _ in range(15):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        graph.replay()
        end.record()
        torch.cuda.synchronize()
        times.append(start.elapsed_time(end) / rep)
    times.sort()
    return times[len(times) // 2] * 1e3
