//! The parallel loops' prelude: rayon's with the `parallel` feature (the default), a
//! sequential stand-in without it (WebAssembly, where the loops run on the calling thread).
//!
//! Both give the same results: every parallel loop of the crate collects in order, sums,
//! takes a minimum or reduces with an associative and commutative operation, and no answer
//! depends on which thread did what (ARCHITECTURE.md, "Determinism").

#[cfg(feature = "parallel")]
pub(crate) use rayon::prelude;

/// The few methods of rayon's prelude the crate uses, run in order on one thread.
#[cfg(not(feature = "parallel"))]
pub(crate) mod prelude {
    /// An iterator with the parallel iterator's methods, run in order.
    pub struct Seq<I>(I);

    impl<I: Iterator> Seq<I> {
        pub fn map<B, F: FnMut(I::Item) -> B>(self, f: F) -> Seq<std::iter::Map<I, F>> {
            Seq(self.0.map(f))
        }

        pub fn filter_map<B, F: FnMut(I::Item) -> Option<B>>(
            self,
            f: F,
        ) -> Seq<std::iter::FilterMap<I, F>> {
            Seq(self.0.filter_map(f))
        }

        /// rayon's `reduce`: `op` folded from `identity()`.
        pub fn reduce<T, F>(self, identity: T, op: F) -> I::Item
        where
            T: Fn() -> I::Item,
            F: Fn(I::Item, I::Item) -> I::Item,
        {
            self.0.fold(identity(), op)
        }

        pub fn sum<S: std::iter::Sum<I::Item>>(self) -> S {
            self.0.sum()
        }

        pub fn min(self) -> Option<I::Item>
        where
            I::Item: Ord,
        {
            self.0.min()
        }

        pub fn collect<C: FromIterator<I::Item>>(self) -> C {
            self.0.collect()
        }
    }

    /// `into_par_iter`, rayon's name for `into_iter`.
    pub trait IntoParallelIterator: IntoIterator + Sized {
        fn into_par_iter(self) -> Seq<Self::IntoIter> {
            Seq(self.into_iter())
        }
    }

    impl<T: IntoIterator> IntoParallelIterator for T {}

    /// `par_iter`, rayon's name for `iter`.
    pub trait IntoParallelRefIterator<'a> {
        type Iter: Iterator;

        fn par_iter(&'a self) -> Seq<Self::Iter>;
    }

    impl<'a, C: ?Sized + 'a> IntoParallelRefIterator<'a> for C
    where
        &'a C: IntoIterator,
    {
        type Iter = <&'a C as IntoIterator>::IntoIter;

        fn par_iter(&'a self) -> Seq<Self::Iter> {
            Seq(self.into_iter())
        }
    }

    /// `par_chunks`, rayon's name for `chunks`.
    pub trait ParallelSlice<T> {
        fn par_chunks(&self, size: usize) -> Seq<std::slice::Chunks<'_, T>>;
    }

    impl<T> ParallelSlice<T> for [T] {
        fn par_chunks(&self, size: usize) -> Seq<std::slice::Chunks<'_, T>> {
            Seq(self.chunks(size))
        }
    }
}
