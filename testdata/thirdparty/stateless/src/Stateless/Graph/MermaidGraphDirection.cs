namespace Stateless.Graph
{
    /// <summary>
    /// The directions of flow that can be chosen for a Mermaid graph.
    /// </summary>
    public enum MermaidGraphDirection
    {
        /// <summary>Left-to-right flow</summary>
        LeftToRight,
        /// <summary>Right-to-left flow</summary>
        RightToLeft,
        /// <summary>Top-to-bottom flow</summary>
        TopToBottom,
        /// <summary>Bottom-to-top flow</summary>
        BottomToTop
    }
}
