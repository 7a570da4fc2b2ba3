//! The MCTS tree's storage. Nodes live in one vector; a node's children are linked as siblings in
//! the order they were made, because under progressive widening they are made over time and no
//! longer sit side by side. A widening node's untried actions wait in a side table, in the order
//! they will become children, until its visits let the next one in.

use ply_core::Game;

/// No node: the end of a list of siblings, or a node without children.
pub(super) const NONE: u32 = u32::MAX;
/// How many explored nodes below the previous root are looked through for the new position.
const REUSE_SEARCH_NODES: usize = 4096;
/// Who chose a node's action when no player did.
pub(super) const CHANCE: u8 = u8::MAX;

/// How far a node has got its children.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Growth {
    Leaf,
    /// All its children are made; `link` is the first, or [`NONE`] if it has none.
    Expanded,
    /// Some children are made and more actions wait untried; `link` is its record in
    /// [`Tree::pending`], which knows the first child. Keeping the record's index in the child
    /// link rather than a field of its own keeps the node as small as before widening existed,
    /// and the node vector is most of the search's memory.
    Widening,
}

#[derive(Clone, Debug)]
pub(super) struct Node<A> {
    pub(super) action: Option<A>,
    /// The player who chose `action`, or [`CHANCE`].
    pub(super) mover: u8,
    growth: Growth,
    /// The first child or the record of untried actions, as `growth` says.
    link: u32,
    /// The parent's next child.
    next_sibling: u32,
    /// Playouts through this node plus its virtual (prior) visits.
    pub(super) visits: u32,
    /// Virtual visits from the evaluator, included in `visits` and `total`.
    pub(super) prior: u32,
    /// Sum of the mover's scores over the playouts through this node.
    pub(super) total: f64,
    /// For chance outcomes: their probability.
    pub(super) probability: f64,
}

impl<A> Node<A> {
    pub(super) fn new(action: Option<A>, mover: u8, probability: f64) -> Self {
        Node {
            action,
            mover,
            growth: Growth::Leaf,
            link: NONE,
            next_sibling: NONE,
            visits: 0,
            prior: 0,
            total: 0.0,
            probability,
        }
    }

    pub(super) fn expanded(&self) -> bool {
        self.growth != Growth::Leaf
    }

    /// Whether untried actions wait to become children.
    pub(super) fn widening(&self) -> bool {
        self.growth == Growth::Widening
    }

    pub(super) fn playouts(&self) -> u32 {
        self.visits - self.prior
    }

    pub(super) fn mean(&self) -> f64 {
        if self.visits == 0 { 0.0 } else { self.total / self.visits as f64 }
    }
}

/// The untried actions of a node that widens progressively, and its children so far: the first,
/// the newest (after which the next is linked, so that children stay in the order they were
/// admitted, which ties in selection depend on) and their number.
#[derive(Clone, Copy, Debug)]
struct Pending {
    /// The actions waiting are `Tree::untried[next..end]`, the next child first.
    next: u32,
    end: u32,
    first_child: u32,
    last_child: u32,
    children: u32,
}

/// One search tree and the position at its root.
pub(super) struct Tree<G: Game> {
    pub(super) nodes: Vec<Node<G::Action>>,
    pending: Vec<Pending>,
    untried: Vec<G::Action>,
    pub(super) root_state: G,
}

/// A node's children, in the order they were made.
pub(super) struct Children<'a, A> {
    nodes: &'a [Node<A>],
    next: u32,
}

impl<A> Iterator for Children<'_, A> {
    type Item = usize;

    fn next(&mut self) -> Option<usize> {
        if self.next == NONE {
            return None;
        }
        let index = self.next as usize;
        self.next = self.nodes[index].next_sibling;
        Some(index)
    }
}

impl<G: Game> Tree<G> {
    pub(super) fn new(state: &G) -> Self {
        Tree {
            nodes: vec![Node::new(None, CHANCE, 1.0)],
            pending: Vec::new(),
            untried: Vec::new(),
            root_state: state.clone(),
        }
    }

    /// `index`'s first child, or [`NONE`].
    pub(super) fn first_child(&self, index: usize) -> u32 {
        let node = &self.nodes[index];
        match node.growth {
            Growth::Widening => self.pending[node.link as usize].first_child,
            _ => node.link,
        }
    }

    pub(super) fn children(&self, index: usize) -> Children<'_, G::Action> {
        Children { nodes: &self.nodes, next: self.first_child(index) }
    }

    /// The tree's memory counted in nodes, for the node limit: the untried actions and their
    /// records take their share, so that `nodes=N` bounds memory with widening as without.
    pub(super) fn size(&self) -> usize {
        let side = self.pending.len() * std::mem::size_of::<Pending>()
            + self.untried.len() * std::mem::size_of::<G::Action>();
        self.nodes.len() + side.div_ceil(std::mem::size_of::<Node<G::Action>>())
    }

    /// Expands `parent`, a leaf, with the nodes from `first` to the end of the vector, just
    /// pushed, as its children in the order they stand.
    pub(super) fn adopt(&mut self, parent: usize, first: usize) {
        let end = self.nodes.len();
        let node = &mut self.nodes[parent];
        node.growth = Growth::Expanded;
        node.link = if first < end { first as u32 } else { NONE };
        for i in first..end {
            self.nodes[i].next_sibling = if i + 1 < end { (i + 1) as u32 } else { NONE };
        }
    }

    /// Puts `actions` aside as `parent`'s untried ones, to be admitted in this order after the
    /// children it has (all of them just adopted).
    pub(super) fn defer(&mut self, parent: usize, actions: &[G::Action]) {
        if actions.is_empty() {
            return;
        }
        let children = self.children(parent).count() as u32;
        let first_child = self.first_child(parent);
        let last_child = self.children(parent).last().map_or(NONE, |c| c as u32);
        let next = self.untried.len() as u32;
        self.untried.extend_from_slice(actions);
        let end = self.untried.len() as u32;
        self.pending.push(Pending { next, end, first_child, last_child, children });
        let node = &mut self.nodes[parent];
        node.growth = Growth::Widening;
        node.link = (self.pending.len() - 1) as u32;
    }

    /// `parent`'s next untried action and the number of children it has, if any action waits.
    pub(super) fn waiting(&self, parent: usize) -> Option<(G::Action, u32)> {
        let node = &self.nodes[parent];
        node.widening().then(|| {
            let p = &self.pending[node.link as usize];
            (self.untried[p.next as usize], p.children)
        })
    }

    /// `index`'s untried actions, the next child first.
    #[cfg(test)]
    pub(super) fn untried(&self, index: usize) -> &[G::Action] {
        let node = &self.nodes[index];
        if !node.widening() {
            return &[];
        }
        let p = &self.pending[node.link as usize];
        &self.untried[p.next as usize..p.end as usize]
    }

    /// Adds `child`, made from the action [`Tree::waiting`] gave, as `parent`'s newest child.
    pub(super) fn admit(&mut self, parent: usize, child: Node<G::Action>) {
        let index = self.nodes.len() as u32;
        self.nodes.push(child);
        let p = &mut self.pending[self.nodes[parent].link as usize];
        match p.last_child {
            NONE => p.first_child = index,
            last => self.nodes[last as usize].next_sibling = index,
        }
        p.next += 1;
        p.children += 1;
        p.last_child = index;
        if p.next == p.end {
            // Nothing waits any more: the node holds its first child itself again.
            let first = p.first_child;
            let node = &mut self.nodes[parent];
            node.growth = Growth::Expanded;
            node.link = first;
        }
    }
}

impl<G: Game + PartialEq> Tree<G> {
    /// The subtree whose root is `state`, if `state` follows from the old root along explored
    /// nodes; otherwise a fresh tree. The line actually played is most likely one the search
    /// explored much, so nodes are looked at most-visited first, as deep as they go (a whole
    /// turn of many actions and the opponents' replies), up to [`REUSE_SEARCH_NODES`].
    pub(super) fn reuse_for(self, state: &G) -> Self {
        if &self.root_state == state {
            return self;
        }
        let mut states = vec![self.root_state.clone()];
        let mut frontier = std::collections::BinaryHeap::from([(self.nodes[0].visits, 0usize, 0usize)]);
        let mut looked = 0;
        while let Some((_, index, slot)) = frontier.pop() {
            for child in self.children(index) {
                let mut child_state = states[slot].clone();
                child_state.apply(self.nodes[child].action.expect("children carry actions"));
                if &child_state == state {
                    return self.extract(child, child_state);
                }
                if self.nodes[child].expanded() {
                    states.push(child_state);
                    frontier.push((self.nodes[child].visits, child, states.len() - 1));
                }
            }
            looked += 1;
            if looked >= REUSE_SEARCH_NODES {
                break;
            }
        }
        Tree::new(state)
    }

    /// Copies the subtree under `root` into a new tree, breadth first so that every node's
    /// children sit together again, with the untried actions still waiting below it.
    fn extract(&self, root: usize, root_state: G) -> Self {
        let top = Node { action: None, next_sibling: NONE, ..self.nodes[root].clone() };
        let mut tree = Tree { nodes: vec![top], pending: Vec::new(), untried: Vec::new(), root_state };
        let mut queue = std::collections::VecDeque::from([(root, 0usize)]);
        while let Some((old, new)) = queue.pop_front() {
            let first = tree.nodes.len();
            for child in self.children(old) {
                queue.push_back((child, tree.nodes.len()));
                tree.nodes.push(self.nodes[child].clone());
            }
            // A leaf's copy is a leaf already, with no link to mend.
            if self.nodes[old].expanded() {
                tree.adopt(new, first);
            }
            if self.nodes[old].widening() {
                let p = self.pending[self.nodes[old].link as usize];
                tree.defer(new, &self.untried[p.next as usize..p.end as usize]);
            }
        }
        tree
    }
}
