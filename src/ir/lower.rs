//! Lowering of an LLVM module (via the `llvm-ir` crate) into Cairn IR.
//!
//! Everything the interpreter would otherwise recompute per step is decided here: type sizes and
//! field offsets, constant values (including constant expressions over global addresses), phi
//! moves per CFG edge, intrinsic kinds. Constructs Cairn cannot execute are rejected here, with
//! their name and source location, so a run never stops half-way on an unknown instruction.

use super::*;
use llvm_ir::HasDebugLoc;
use llvm_ir::types::{FPType, NamedStructDef};
use llvm_ir::{self as l, Constant, ConstantRef, Name, Operand, Type, TypeRef};
use std::path::Path;

#[derive(Debug, thiserror::Error)]
#[error("{loc}: unsupported: {what}")]
pub struct LowerError {
    pub what: String,
    pub loc: String,
}

type Result<T> = std::result::Result<T, LowerError>;

fn unsupported<T>(what: impl Into<String>, loc: &str) -> Result<T> {
    Err(LowerError {
        what: what.into(),
        loc: loc.to_string(),
    })
}

/// Loads a bitcode file and lowers it.
pub fn load_bitcode(path: &Path, dm: DataModel) -> Result<Module> {
    let m = l::Module::from_bc_path(path).map_err(|e| LowerError {
        what: format!("cannot read bitcode: {e}"),
        loc: path.display().to_string(),
    })?;
    Lowerer::new(&m, dm).lower()
}

struct Layout<'a> {
    m: &'a l::Module,
    dm: DataModel,
}

impl<'a> Layout<'a> {
    fn resolve(&self, ty: &'a Type) -> &'a Type {
        if let Type::NamedStructType { name } = ty
            && let Some(NamedStructDef::Defined(t)) = self.m.types.named_struct_def(name)
        {
            // SAFETY of lifetimes: TypeRef is an Arc owned by the module's type table.
            let t: &Type = t.as_ref();
            return unsafe { &*(t as *const Type) };
        }
        ty
    }

    fn align(&self, ty: &Type) -> u64 {
        match self.resolve(ty) {
            Type::StructType {
                element_types,
                is_packed,
            } => {
                if *is_packed {
                    1
                } else {
                    element_types
                        .iter()
                        .map(|t| self.align(t))
                        .max()
                        .unwrap_or(1)
                }
            }
            Type::ArrayType { element_type, .. } => self.align(element_type),
            Type::IntegerType { bits } if *bits > 64 => 16,
            Type::FPType(FPType::X86_FP80) | Type::FPType(FPType::FP128) => {
                if self.dm == DataModel::ILP32 { 4 } else { 16 }
            }
            Type::FuncType { .. }
            | Type::VoidType
            | Type::MetadataType
            | Type::LabelType
            | Type::TokenType => 1,
            t => (self.m.data_layout.alignments.type_alignment(t).abi / 8).max(1) as u64,
        }
    }

    fn store_size(&self, ty: &Type) -> u64 {
        match self.resolve(ty) {
            Type::IntegerType { bits } => (*bits as u64).div_ceil(8),
            Type::FPType(FPType::X86_FP80) => 10,
            _ => self.size(ty),
        }
    }

    /// Allocation size (store size rounded up to the alignment), as `sizeof` in C.
    /// Whether a value of this type contains pointers.
    fn has_pointers(&self, ty: &Type) -> bool {
        match self.resolve(ty) {
            Type::PointerType { .. } => true,
            Type::ArrayType { element_type, .. } | Type::VectorType { element_type, .. } => {
                self.has_pointers(element_type)
            }
            Type::StructType { element_types, .. } => {
                element_types.iter().any(|t| self.has_pointers(t))
            }
            _ => false,
        }
    }

    fn size(&self, ty: &Type) -> u64 {
        match self.resolve(ty) {
            Type::IntegerType { bits } => {
                let s = (*bits as u64).div_ceil(8);
                s.div_ceil(self.align(ty)) * self.align(ty)
            }
            Type::PointerType { .. } => self.dm.ptr_bytes() as u64,
            Type::FPType(fp) => match fp {
                FPType::Half | FPType::BFloat => 2,
                FPType::Single => 4,
                FPType::Double => 8,
                FPType::X86_FP80 if self.dm == DataModel::ILP32 => 12,
                _ => 16,
            },
            Type::ArrayType {
                element_type,
                num_elements,
            } => self.size(element_type) * *num_elements as u64,
            Type::VectorType {
                element_type,
                num_elements,
                ..
            } => self.size(element_type) * *num_elements as u64,
            Type::StructType {
                element_types,
                is_packed,
            } => {
                let (_, end) = self.struct_offsets(element_types, *is_packed);
                let a = self.align(ty);
                end.div_ceil(a) * a
            }
            _ => 0,
        }
    }

    fn struct_offsets(&self, elems: &[TypeRef], packed: bool) -> (Vec<u64>, u64) {
        let mut off = 0u64;
        let mut v = Vec::with_capacity(elems.len());
        for e in elems {
            if !packed {
                let a = self.align(e);
                off = off.div_ceil(a) * a;
            }
            v.push(off);
            off += self.size(e);
        }
        (v, off)
    }

    /// Offset of an aggregate member path (extractvalue/insertvalue indices) and its type.
    fn member(&self, ty: &'a Type, indices: &[u32]) -> (u64, &'a Type) {
        let mut off = 0;
        let mut cur = ty;
        for &i in indices {
            match self.resolve(cur) {
                Type::StructType {
                    element_types,
                    is_packed,
                } => {
                    let (offs, _) = self.struct_offsets(element_types, *is_packed);
                    off += offs[i as usize];
                    cur = element_types[i as usize].as_ref();
                }
                Type::ArrayType { element_type, .. } | Type::VectorType { element_type, .. } => {
                    off += self.size(element_type) * i as u64;
                    cur = element_type.as_ref();
                }
                _ => break,
            }
        }
        (off, cur)
    }

    fn ty(&self, ty: &Type) -> std::result::Result<Ty, String> {
        Ok(match self.resolve(ty) {
            Type::VoidType => Ty::Void,
            Type::IntegerType { bits } if *bits <= 64 => Ty::Int(*bits as u8),
            Type::IntegerType { bits } => return Err(format!("{bits}-bit integers")),
            Type::FPType(FPType::Single) => Ty::F32,
            Type::FPType(FPType::Double) => Ty::F64,
            Type::FPType(fp) => return Err(format!("floating-point type {fp:?} (long double)")),
            Type::PointerType { .. } => Ty::Ptr,
            Type::StructType { .. } | Type::ArrayType { .. } => Ty::Agg(self.size(ty) as u32),
            Type::VectorType { .. } => return Err("vector types".into()),
            t => return Err(format!("type {t}")),
        })
    }
}

struct Lowerer<'a> {
    m: &'a l::Module,
    lay: Layout<'a>,
    out: Module,
    files: HashMap<String, u32>,
    global_addr: HashMap<String, u64>,
    extern_by_name: HashMap<String, u32>,
}

fn name_str(n: &Name) -> String {
    match n {
        Name::Name(s) => s.to_string(),
        Name::Number(i) => format!("{i}"),
    }
}

fn mask(v: u64, w: u32) -> u64 {
    if w >= 64 { v } else { v & ((1u64 << w) - 1) }
}

fn sext(v: u64, w: u32) -> i64 {
    if w >= 64 || w == 0 {
        v as i64
    } else {
        ((v << (64 - w)) as i64) >> (64 - w)
    }
}

impl<'a> Lowerer<'a> {
    fn new(m: &'a l::Module, dm: DataModel) -> Self {
        Lowerer {
            m,
            lay: Layout { m, dm },
            out: Module {
                data_model: dm,
                files: vec![],
                functions: vec![],
                func_by_name: HashMap::new(),
                func_addrs: vec![],
                externs: vec![],
                extern_addrs: vec![],
                globals: vec![],
                globals_end: layout::GLOBAL_BASE,
                branch_goals: vec![],
                call_sites: vec![],
                main_status_unknown: false,
                uninitialized_reads: vec![],
                not_interpreted: vec![],
            },
            files: HashMap::new(),
            global_addr: HashMap::new(),
            extern_by_name: HashMap::new(),
        }
    }

    fn loc(&mut self, d: &Option<l::DebugLoc>) -> Loc {
        match d {
            None => Loc::default(),
            Some(d) => {
                let path = match &d.directory {
                    Some(dir) if !d.filename.starts_with('/') && !dir.is_empty() => {
                        format!("{}/{}", dir, d.filename)
                    }
                    _ => d.filename.clone(),
                };
                let n = self.files.len() as u32;
                let file = *self.files.entry(path.clone()).or_insert_with(|| {
                    self.out.files.push(path);
                    n
                });
                Loc {
                    file,
                    line: d.line,
                    col: d.col.unwrap_or(0),
                }
            }
        }
    }

    fn lower(mut self) -> Result<Module> {
        let m = self.m;
        // Function ids and fake addresses first: constants may take their address.
        let mut addr = layout::FUNC_BASE;
        for (i, f) in m.functions.iter().enumerate() {
            self.out.func_by_name.insert(f.name.clone(), i as FuncId);
            self.out.func_addrs.push(addr);
            self.global_addr.insert(f.name.clone(), addr);
            addr += 16;
        }
        for d in &m.func_declarations {
            if d.name.starts_with("llvm.") {
                continue;
            }
            let ext = self.extern_decl(
                &d.name,
                &d.return_type,
                d.parameters.iter().map(|p| p.ty.clone()).collect(),
                d.is_var_arg,
            );
            let _ = ext;
        }
        // Global layout: deterministic, in module order, 16-byte red zones between objects.
        let mut ga = layout::GLOBAL_BASE;
        let mut pending = vec![];
        for g in &m.global_vars {
            let name = name_str(&g.name);
            let (size, align) = match &g.initializer {
                Some(c) => {
                    let t = m.types.type_of(c);
                    (
                        self.lay.size(&t),
                        self.lay.align(&t).max(g.alignment as u64).max(1),
                    )
                }
                None => (64, 16), // external data (stdin, errno...): opaque zeroed storage
            };
            let align = align.max(1);
            ga = ga.div_ceil(align.max(16)) * align.max(16);
            self.global_addr.insert(name.clone(), ga);
            pending.push((name, ga, size.max(1), align as u32, g));
            ga += size.max(1) + 16;
        }
        // The standard streams point at private FILE objects so that the executor can tell them apart.
        self.out.globals_end = ga.div_ceil(4096) * 4096;
        for (name, addr, size, align, g) in pending {
            let mut init = vec![0u8; size as usize];
            let mut holds_pointers = false;
            if let Some(c) = &g.initializer {
                self.const_bytes(c, &mut init, &name)?;
                holds_pointers = self.lay.has_pointers(&m.types.type_of(c));
            }
            use l::module::Linkage as Lk;
            let external = g.initializer.is_some()
                && matches!(
                    g.linkage,
                    Lk::External | Lk::Common | Lk::WeakAny | Lk::WeakODR
                );
            self.out.globals.push(Global {
                name,
                source_name: None,
                addr,
                size,
                align,
                init,
                read_only: g.is_constant,
                external,
                holds_pointers,
            });
        }
        for f in &m.functions {
            let lf = self.function(f)?;
            self.out.functions.push(lf);
        }
        Ok(self.out)
    }

    fn extern_decl(
        &mut self,
        name: &str,
        ret: &TypeRef,
        params: Vec<TypeRef>,
        var_arg: bool,
    ) -> u32 {
        if let Some(&i) = self.extern_by_name.get(name) {
            return i;
        }
        let i = self.out.externs.len() as u32;
        let ret = self.lay.ty(ret).unwrap_or(Ty::Void);
        let params = params
            .iter()
            .map(|t| self.lay.ty(t).unwrap_or(Ty::Void))
            .collect();
        self.out.externs.push(Extern {
            name: name.to_string(),
            ret,
            params,
            is_var_arg: var_arg,
        });
        let addr = layout::FUNC_BASE + 16 * (self.m.functions.len() as u64 + i as u64);
        self.out.extern_addrs.push(addr);
        self.global_addr.insert(name.to_string(), addr);
        self.extern_by_name.insert(name.to_string(), i);
        i
    }

    // ---------------------------------------------------------------- constants

    fn const_scalar(&self, c: &Constant, at: &str) -> Result<u64> {
        use Constant as C;
        let pw = self.lay.dm.ptr_bytes() * 8;
        let bits_of = |t: &TypeRef| -> u32 {
            match self.lay.ty(t) {
                Ok(t) => t.bits(self.lay.dm),
                Err(_) => 64,
            }
        };
        Ok(match c {
            C::Int { bits, value } => mask(*value, *bits),
            C::Float(l::constant::Float::Single(f)) => f.to_bits() as u64,
            C::Float(l::constant::Float::Double(f)) => f.to_bits(),
            C::Float(f) => return unsupported(format!("floating constant {f:?}"), at),
            C::Null(_) | C::AggregateZero(_) | C::Undef(_) | C::Poison(_) => 0,
            C::GlobalReference { name, .. } => {
                let n = name_str(name);
                match self.global_addr.get(&n) {
                    Some(a) => *a,
                    None => return unsupported(format!("reference to unknown global @{n}"), at),
                }
            }
            C::GetElementPtr(g) => {
                let base = self.const_scalar(&g.address, at)?;
                let src = self.const_gep_source_type(g);
                let mut off: i64 = 0;
                let mut cur: &Type = src.as_ref();
                for (k, idx) in g.indices.iter().enumerate() {
                    let (bits, v) = match idx.as_ref() {
                        C::Int { bits, value } => (*bits, *value),
                        _ => return unsupported("non-constant index in constant GEP", at),
                    };
                    let v = sext(v, bits);
                    if k == 0 {
                        off += v * self.lay.size(cur) as i64;
                        continue;
                    }
                    match self.lay.resolve(cur) {
                        Type::StructType {
                            element_types,
                            is_packed,
                        } => {
                            let (offs, _) = self.lay.struct_offsets(element_types, *is_packed);
                            off += offs[v as usize] as i64;
                            cur = element_types[v as usize].as_ref();
                        }
                        Type::ArrayType { element_type, .. }
                        | Type::VectorType { element_type, .. } => {
                            off += v * self.lay.size(element_type) as i64;
                            cur = element_type.as_ref();
                        }
                        t => return unsupported(format!("constant GEP into {t}"), at),
                    }
                }
                mask(base.wrapping_add(off as u64), pw)
            }
            C::PtrToInt(x) => mask(self.const_scalar(&x.operand, at)?, bits_of(&x.to_type)),
            C::IntToPtr(x) => mask(self.const_scalar(&x.operand, at)?, pw),
            C::BitCast(x) => self.const_scalar(&x.operand, at)?,
            C::AddrSpaceCast(x) => self.const_scalar(&x.operand, at)?,
            C::Trunc(x) => mask(self.const_scalar(&x.operand, at)?, bits_of(&x.to_type)),
            C::Add(x) => self.const_bin(&x.operand0, &x.operand1, at, |a, b| a.wrapping_add(b))?,
            C::Sub(x) => self.const_bin(&x.operand0, &x.operand1, at, |a, b| a.wrapping_sub(b))?,
            C::Mul(x) => self.const_bin(&x.operand0, &x.operand1, at, |a, b| a.wrapping_mul(b))?,
            C::Xor(x) => self.const_bin(&x.operand0, &x.operand1, at, |a, b| a ^ b)?,
            other => return unsupported(format!("constant expression {other}"), at),
        })
    }

    fn const_gep_source_type(&self, g: &l::constant::GetElementPtr) -> TypeRef {
        // llvm-ir 0.11 does not keep the source element type of constant GEPs; LLVM 19's
        // canonical constant GEPs are `getelementptr (i8, ptr @g, i64 N)` or index into the
        // global's value type. Recover it from the referenced global's initializer when possible.
        if let Constant::GlobalReference { name, .. } = g.address.as_ref()
            && g.indices.len() > 1
            && let Some(gv) = self.m.global_vars.iter().find(|v| &v.name == name)
            && let Some(init) = &gv.initializer
        {
            return self.m.types.type_of(init);
        }
        self.m.types.i8()
    }

    fn const_bin(
        &self,
        a: &ConstantRef,
        b: &ConstantRef,
        at: &str,
        f: impl Fn(u64, u64) -> u64,
    ) -> Result<u64> {
        let w = match self.lay.ty(&self.m.types.type_of(a)) {
            Ok(t) => t.bits(self.lay.dm),
            Err(_) => 64,
        };
        Ok(mask(
            f(self.const_scalar(a, at)?, self.const_scalar(b, at)?),
            w,
        ))
    }

    /// Writes the in-memory representation of a constant into `out` (sized to its type).
    fn const_bytes(&self, c: &Constant, out: &mut [u8], at: &str) -> Result<()> {
        use Constant as C;
        match c {
            C::AggregateZero(_) | C::Undef(_) | C::Poison(_) | C::Null(_) => {
                out.fill(0);
            }
            C::Struct {
                values, is_packed, ..
            } => {
                let tys: Vec<TypeRef> = values.iter().map(|v| self.m.types.type_of(v)).collect();
                let (offs, _) = self.lay.struct_offsets(&tys, *is_packed);
                for ((v, t), off) in values.iter().zip(&tys).zip(offs) {
                    let sz = self.lay.size(t) as usize;
                    let off = off as usize;
                    self.const_bytes(v, &mut out[off..off + sz], at)?;
                }
            }
            C::Array {
                element_type,
                elements,
            } => {
                let sz = self.lay.size(element_type) as usize;
                for (i, e) in elements.iter().enumerate() {
                    self.const_bytes(e, &mut out[i * sz..(i + 1) * sz], at)?;
                }
            }
            C::Vector(_) => return unsupported("vector constant", at),
            _ => {
                let t = self.m.types.type_of(c);
                let v = self.const_scalar(c, at)?;
                let n = (self.lay.store_size(&t) as usize).min(out.len()).min(8);
                out[..n].copy_from_slice(&v.to_le_bytes()[..n]);
            }
        }
        Ok(())
    }

    // ---------------------------------------------------------------- functions

    fn function(&mut self, f: &'a l::Function) -> Result<Function> {
        let floc = self.loc(&f.debugloc);
        let id = self.out.func_by_name[&f.name];
        let mut fl = FnLower {
            lw: self,
            vals: HashMap::new(),
            reg_init: vec![],
            reg_names: vec![],
            reg_tys: vec![],
            agg_init: vec![],
            consts: HashMap::new(),
            undef_regs: vec![],
            blocks: HashMap::new(),
            fname: f.name.clone(),
            in_runtime: f
                .debugloc
                .as_ref()
                .is_some_and(|d| d.filename.ends_with(super::frontend::RUNTIME_FILE)),
            opaque: Default::default(),
        };
        for (i, b) in f.basic_blocks.iter().enumerate() {
            fl.blocks.insert(b.name.clone(), i as BlockId);
        }
        let mut params = vec![];
        let mut byval = vec![];
        for (i, p) in f.parameters.iter().enumerate() {
            for a in &p.attributes {
                if let l::function::ParameterAttribute::ByVal(t) = a {
                    byval.push((i, fl.lw.lay.size(t), fl.lw.lay.align(t) as u32));
                }
            }
            let at = format!("function {}", f.name);
            let v = fl.new_val_or_opaque(&p.ty, &p.name, &at);
            fl.vals.insert(p.name.clone(), v);
            params.push(v);
        }
        // Destinations first: phis and forward references need their registers.
        for b in &f.basic_blocks {
            for inst in &b.instrs {
                if let Some(d) = inst.try_get_result() {
                    let ty = fl.lw.m.types.type_of(inst);
                    let at = fl.lw_loc_str(inst.get_debug_loc());
                    let v = fl.new_val_or_opaque(&ty, d, &at);
                    fl.vals.insert(d.clone(), v);
                }
            }
        }
        // Phi moves, keyed by (predecessor, successor).
        let mut moves: HashMap<(BlockId, BlockId), Moves> = HashMap::new();
        for (bi, b) in f.basic_blocks.iter().enumerate() {
            for inst in &b.instrs {
                if let l::Instruction::Phi(phi) = inst {
                    // Nothing interpreted reads an opaque phi.
                    if fl.opaque.contains(&phi.dest) {
                        continue;
                    }
                    let dst = fl.vals[&phi.dest];
                    let mut seen = std::collections::HashSet::new();
                    for (op, pred) in &phi.incoming_values {
                        let p = fl.blocks[pred];
                        if !seen.insert(p) {
                            continue;
                        }
                        let at = fl.lw_loc_str(&phi.debugloc);
                        let src = fl.operand(op, &at)?;
                        let mv = moves.entry((p, bi as BlockId)).or_default();
                        match (dst, src) {
                            (Val::Reg(d, _), Val::Reg(s, _)) => mv.regs.push((d, s)),
                            (Val::Agg(d, n), Val::Agg(s, _)) => mv.aggs.push((d, s, n)),
                            _ => return unsupported("phi mixing aggregate and scalar", &at),
                        }
                    }
                }
            }
        }
        let mut blocks = vec![];
        for (bi, b) in f.basic_blocks.iter().enumerate() {
            let mut insts = vec![];
            let mut locs = vec![];
            for inst in &b.instrs {
                let loc = fl.lw.loc(inst.get_debug_loc());
                let at = fl.lw_loc_str(inst.get_debug_loc());
                let before = insts.len();
                if let Err(e) = fl.inst(inst, &mut insts, loc, &at) {
                    let dest = inst.try_get_result().map(|d| fl.vals[d]);
                    // An aggregate result the model checker could not havoc: refused, as before.
                    if matches!(dest, Some(Val::Agg(..))) {
                        return Err(e);
                    }
                    insts.truncate(before);
                    fl.not_interpreted(e, &mut insts, loc, dest);
                }
                for _ in before..insts.len() {
                    locs.push(loc);
                }
            }
            let term_loc = fl.lw.loc(b.term.get_debug_loc());
            let at = fl.lw_loc_str(b.term.get_debug_loc());
            let term = match fl.term(&b.term, bi as BlockId, id, term_loc, &moves, &at) {
                Ok(term) => term,
                // Returning a value not modelled: the stop, then a return of any value (the
                // model checker goes on past the call, as a native run does).
                Err(e) if matches!(b.term, l::Terminator::Ret(_)) => {
                    let any = Val::Reg(fl.new_reg("", 0), Ty::Int(64));
                    fl.not_interpreted(e, &mut insts, term_loc, Some(any));
                    locs.resize(insts.len(), term_loc);
                    Terminator::Ret { val: Some(any) }
                }
                Err(e) => return Err(e),
            };
            blocks.push(Block {
                name: name_str(&b.name),
                insts,
                locs,
                term,
                term_loc,
            });
        }
        let num_regs = fl.reg_init.len() as u32;
        let (reg_init, agg_init, reg_names, reg_tys) =
            (fl.reg_init, fl.agg_init, fl.reg_names, fl.reg_tys);
        let undef_regs = fl.undef_regs;
        // Goal target locations: the first located instruction of the target block.
        // Only real instructions count: a block that is just a jump carries the location of
        // whatever clang attached to the jump (often a closing brace no native block owns).
        let first_loc = |b: &Block| -> Loc {
            b.locs
                .iter()
                .copied()
                .find(|l| l.line > 0)
                .unwrap_or_default()
        };
        for (gi, g) in self.out.branch_goals.iter_mut().enumerate() {
            if g.func != id {
                continue;
            }
            let term = &blocks[g.block as usize].term;
            let target = match term {
                Terminator::CondBr {
                    then_edge,
                    else_edge,
                    then_goal,
                    ..
                } => {
                    if *then_goal as usize == gi {
                        then_edge.target
                    } else {
                        else_edge.target
                    }
                }
                Terminator::Switch { cases, default, .. } => {
                    if g.outcome == "default" {
                        default.target
                    } else {
                        let v: u64 = g
                            .outcome
                            .trim_start_matches("case ")
                            .parse::<i64>()
                            .map(|x| x as u64)
                            .unwrap_or(0);
                        cases
                            .iter()
                            .find(|c| sext(c.0, 64) as u64 == v || c.0 == v)
                            .map(|c| c.1.target)
                            .unwrap_or(default.target)
                    }
                }
                _ => continue,
            };
            g.target_loc = first_loc(&blocks[target as usize]);
        }
        // A result of a type not modelled (long double): its `ret` is not interpreted.
        let ret = self.lay.ty(&f.return_type).unwrap_or(Ty::Int(64));
        super::operands::drop_unused_results(&mut blocks);
        // Indeterminate initial values nothing reads cost a call each: gone.
        let externs = &self.out.externs;
        for b in &mut blocks {
            let (insts, locs): (Vec<Inst>, Vec<Loc>) = std::mem::take(&mut b.insts)
                .into_iter()
                .zip(std::mem::take(&mut b.locs))
                .filter(|(i, _)| {
                    !matches!(i, Inst::CallExtern { ext, ret: None, .. }
                        if externs[*ext as usize].name.starts_with(super::normalize::INDETERMINATE))
                })
                .unzip();
            b.insts = insts;
            b.locs = locs;
        }
        Ok(Function {
            name: f.name.clone(),
            id,
            params,
            byval,
            ret,
            is_var_arg: f.is_var_arg,
            blocks,
            num_regs,
            reg_init,
            agg_init,
            reg_names,
            variables: HashMap::new(),
            reg_tys,
            undef_regs,
            pointee_bytes: vec![],
            param_unsigned: vec![],
            param_callback: vec![],
            loc: floc,
        })
    }
}

fn ipred(p: l::IntPredicate) -> IPred {
    use l::IntPredicate as P;
    match p {
        P::EQ => IPred::Eq,
        P::NE => IPred::Ne,
        P::UGT => IPred::Ugt,
        P::UGE => IPred::Uge,
        P::ULT => IPred::Ult,
        P::ULE => IPred::Ule,
        P::SGT => IPred::Sgt,
        P::SGE => IPred::Sge,
        P::SLT => IPred::Slt,
        P::SLE => IPred::Sle,
    }
}

fn fpred(p: l::FPPredicate) -> FPred {
    use l::FPPredicate as P;
    match p {
        P::False => FPred::False,
        P::OEQ => FPred::Oeq,
        P::OGT => FPred::Ogt,
        P::OGE => FPred::Oge,
        P::OLT => FPred::Olt,
        P::OLE => FPred::Ole,
        P::ONE => FPred::One,
        P::ORD => FPred::Ord,
        P::UNO => FPred::Uno,
        P::UEQ => FPred::Ueq,
        P::UGT => FPred::Ugt,
        P::UGE => FPred::Uge,
        P::ULT => FPred::Ult,
        P::ULE => FPred::Ule,
        P::UNE => FPred::Une,
        P::True => FPred::True,
    }
}

struct FnLower<'l, 'a> {
    lw: &'l mut Lowerer<'a>,
    vals: HashMap<Name, Val>,
    reg_init: Vec<u64>,
    reg_names: Vec<String>,
    reg_tys: Vec<Ty>,
    agg_init: Vec<u8>,
    consts: HashMap<u64, Reg>,
    undef_regs: Vec<Reg>,
    blocks: HashMap<Name, BlockId>,
    fname: String,
    /// Functions of Cairn's C runtime have no goals.
    in_runtime: bool,
    /// Values of types the interpreter does not model (long double, vectors): placeholders
    /// no interpreted instruction reads (a reader is itself not interpreted).
    opaque: std::collections::HashSet<Name>,
}

impl<'l, 'a> FnLower<'l, 'a> {
    fn lw_loc_str(&mut self, d: &Option<l::DebugLoc>) -> String {
        match d {
            Some(d) => format!(
                "{}:{}:{} (in {})",
                d.filename,
                d.line,
                d.col.unwrap_or(0),
                self.fname
            ),
            None => format!("function {}", self.fname),
        }
    }

    fn new_reg(&mut self, name: &str, init: u64) -> Reg {
        self.reg_init.push(init);
        self.reg_names.push(name.to_string());
        self.reg_tys.push(Ty::Void);
        (self.reg_init.len() - 1) as Reg
    }

    fn new_agg(&mut self, size: u32) -> AggSlot {
        let off = self.agg_init.len().div_ceil(8) * 8;
        self.agg_init.resize(off + size as usize, 0);
        off as AggSlot
    }

    /// `new_val`, or for a type the interpreter does not model a placeholder register that
    /// only instructions not interpreted read.
    fn new_val_or_opaque(&mut self, ty: &TypeRef, name: &Name, at: &str) -> Val {
        self.new_val(ty, &name_str(name), at).unwrap_or_else(|_| {
            self.opaque.insert(name.clone());
            let t = Ty::Int(64);
            let r = self.new_reg(&name_str(name), 0);
            self.reg_tys[r as usize] = t;
            Val::Reg(r, t)
        })
    }

    /// An instruction the interpreter cannot execute (`why`): a run that reaches it stops
    /// there, unsupported, and the model checker havocs over it as over inline assembly; the
    /// program still loads, and its native runs execute it. Told to the user at loading.
    /// `dest`, the instruction's result, is havocked by the model checker.
    fn not_interpreted(
        &mut self,
        why: LowerError,
        out: &mut Vec<Inst>,
        loc: Loc,
        dest: Option<Val>,
    ) {
        self.lw.out.not_interpreted.push(why.to_string());
        let void = self.lw.m.types.void();
        let ext = self
            .lw
            .extern_decl(super::NOT_INTERPRETED, &void, vec![], true);
        let site = self.lw.out.call_sites.len() as u32;
        self.lw.out.call_sites.push(loc);
        out.push(Inst::CallExtern {
            ext,
            args: vec![],
            ret: dest,
            site,
        });
    }

    fn new_val(&mut self, ty: &TypeRef, name: &str, at: &str) -> Result<Val> {
        match self.lw.lay.ty(ty) {
            Ok(Ty::Agg(n)) => Ok(Val::Agg(self.new_agg(n), n)),
            Ok(t) => {
                let r = self.new_reg(name, 0);
                self.reg_tys[r as usize] = t;
                Ok(Val::Reg(r, t))
            }
            Err(e) => unsupported(e, at),
        }
    }

    fn const_reg(&mut self, v: u64) -> Reg {
        if let Some(&r) = self.consts.get(&v) {
            return r;
        }
        let r = self.new_reg("", v);
        self.consts.insert(v, r);
        r
    }

    fn operand(&mut self, op: &Operand, at: &str) -> Result<Val> {
        match op {
            Operand::LocalOperand { name, .. } => match self.vals.get(name) {
                Some(_) if self.opaque.contains(name) => {
                    unsupported(format!("a value of a type not modelled ({name})"), at)
                }
                Some(v) => Ok(*v),
                None => unsupported(format!("use of undefined value {name}"), at),
            },
            Operand::ConstantOperand(c) => {
                let ty = self.lw.m.types.type_of(c.as_ref());
                match self.lw.lay.ty(&ty) {
                    Ok(Ty::Agg(n)) => {
                        let mut bytes = vec![0u8; n as usize];
                        self.lw.const_bytes(c, &mut bytes, at)?;
                        let slot = self.new_agg(n);
                        self.agg_init[slot as usize..slot as usize + n as usize]
                            .copy_from_slice(&bytes);
                        Ok(Val::Agg(slot, n))
                    }
                    Ok(t) if matches!(c.as_ref(), Constant::Undef(_) | Constant::Poison(_)) => {
                        // Its own register, so observers can tell it from a real 0.
                        let r = self.new_reg("undef", 0);
                        self.undef_regs.push(r);
                        Ok(Val::Reg(r, t))
                    }
                    Ok(t) => {
                        let v = self.lw.const_scalar(c, at)?;
                        Ok(Val::Reg(self.const_reg(v), t))
                    }
                    Err(e) => unsupported(e, at),
                }
            }
            Operand::MetadataOperand => unsupported("metadata operand", at),
        }
    }

    fn reg(&mut self, op: &Operand, at: &str) -> Result<Reg> {
        match self.operand(op, at)? {
            Val::Reg(r, _) => Ok(r),
            Val::Agg(..) => unsupported("aggregate where a scalar was expected", at),
        }
    }

    fn ty_of(&self, op: &Operand) -> Ty {
        self.lw
            .lay
            .ty(&self.lw.m.types.type_of(op))
            .unwrap_or(Ty::Void)
    }

    fn dst(&self, n: &Name) -> Reg {
        match self.vals[n] {
            Val::Reg(r, _) => r,
            Val::Agg(s, _) => s,
        }
    }

    fn int_w(&self, op: &Operand, at: &str) -> Result<u8> {
        match self.ty_of(op) {
            Ty::Int(w) => Ok(w),
            Ty::Ptr => Ok((self.lw.lay.dm.ptr_bytes() * 8) as u8),
            t => unsupported(format!("integer operation on {t:?}"), at),
        }
    }

    fn inst(
        &mut self,
        inst: &l::Instruction,
        out: &mut Vec<Inst>,
        loc: Loc,
        at: &str,
    ) -> Result<()> {
        use l::Instruction as I;
        macro_rules! bin {
            ($x:expr, $op:expr) => {{
                let w = self.int_w(&$x.operand0, at)?;
                let a = self.reg(&$x.operand0, at)?;
                let b = self.reg(&$x.operand1, at)?;
                out.push(Inst::Bin {
                    op: $op,
                    w,
                    dst: self.dst(&$x.dest),
                    a,
                    b,
                });
            }};
        }
        macro_rules! fbin {
            ($x:expr, $op:expr) => {{
                let ty = self.ty_of(&$x.operand0);
                let a = self.reg(&$x.operand0, at)?;
                let b = self.reg(&$x.operand1, at)?;
                out.push(Inst::FBin {
                    op: $op,
                    ty,
                    dst: self.dst(&$x.dest),
                    a,
                    b,
                });
            }};
        }
        macro_rules! cast {
            ($x:expr, $op:expr) => {{
                let from = self.ty_of(&$x.operand);
                let to = self.lw.lay.ty(&$x.to_type).map_err(|e| LowerError {
                    what: e,
                    loc: at.into(),
                })?;
                let a = self.reg(&$x.operand, at)?;
                out.push(Inst::Cast {
                    op: $op,
                    from,
                    to,
                    dst: self.dst(&$x.dest),
                    a,
                });
            }};
        }
        match inst {
            I::Add(x) => bin!(x, BinOp::Add),
            I::Sub(x) => bin!(x, BinOp::Sub),
            I::Mul(x) => bin!(x, BinOp::Mul),
            I::UDiv(x) => bin!(x, BinOp::UDiv),
            I::SDiv(x) => bin!(x, BinOp::SDiv),
            I::URem(x) => bin!(x, BinOp::URem),
            I::SRem(x) => bin!(x, BinOp::SRem),
            I::And(x) => bin!(x, BinOp::And),
            I::Or(x) => bin!(x, BinOp::Or),
            I::Xor(x) => bin!(x, BinOp::Xor),
            I::Shl(x) => bin!(x, BinOp::Shl),
            I::LShr(x) => bin!(x, BinOp::LShr),
            I::AShr(x) => bin!(x, BinOp::AShr),
            I::FAdd(x) => fbin!(x, FBinOp::Add),
            I::FSub(x) => fbin!(x, FBinOp::Sub),
            I::FMul(x) => fbin!(x, FBinOp::Mul),
            I::FDiv(x) => fbin!(x, FBinOp::Div),
            I::FRem(x) => fbin!(x, FBinOp::Rem),
            I::FNeg(x) => {
                let ty = self.ty_of(&x.operand);
                let a = self.reg(&x.operand, at)?;
                out.push(Inst::FNeg {
                    ty,
                    dst: self.dst(&x.dest),
                    a,
                });
            }
            I::ICmp(x) => {
                let w = self.int_w(&x.operand0, at)?;
                let a = self.reg(&x.operand0, at)?;
                let b = self.reg(&x.operand1, at)?;
                out.push(Inst::ICmp {
                    pred: ipred(x.predicate),
                    w,
                    dst: self.dst(&x.dest),
                    a,
                    b,
                });
            }
            I::FCmp(x) => {
                let ty = self.ty_of(&x.operand0);
                let a = self.reg(&x.operand0, at)?;
                let b = self.reg(&x.operand1, at)?;
                out.push(Inst::FCmp {
                    pred: fpred(x.predicate),
                    ty,
                    dst: self.dst(&x.dest),
                    a,
                    b,
                });
            }
            I::Trunc(x) => cast!(x, CastOp::Trunc),
            I::ZExt(x) => cast!(x, CastOp::ZExt),
            I::SExt(x) => cast!(x, CastOp::SExt),
            I::FPTrunc(x) => cast!(x, CastOp::FpTrunc),
            I::FPExt(x) => cast!(x, CastOp::FpExt),
            I::FPToUI(x) => cast!(x, CastOp::FpToUi),
            I::FPToSI(x) => cast!(x, CastOp::FpToSi),
            I::UIToFP(x) => cast!(x, CastOp::UiToFp),
            I::SIToFP(x) => cast!(x, CastOp::SiToFp),
            I::PtrToInt(x) => cast!(x, self.int_cast_op(&x.operand, &x.to_type)),
            I::IntToPtr(x) => cast!(x, self.int_cast_op(&x.operand, &x.to_type)),
            I::BitCast(x) => cast!(x, CastOp::Bits),
            I::AddrSpaceCast(x) => cast!(x, CastOp::Bits),
            I::Freeze(x) => {
                let a = self.operand(&x.operand, at)?;
                match a {
                    Val::Reg(a, t) => out.push(Inst::Cast {
                        op: CastOp::Bits,
                        from: t,
                        to: t,
                        dst: self.dst(&x.dest),
                        a,
                    }),
                    Val::Agg(s, n) => out.push(Inst::ExtractAgg {
                        dst: self.dst(&x.dest),
                        size: n,
                        agg: s,
                        offset: 0,
                    }),
                }
            }
            I::Phi(_) => {} // resolved on edges
            I::Select(x) => {
                let cond = self.reg(&x.condition, at)?;
                match (
                    self.operand(&x.true_value, at)?,
                    self.operand(&x.false_value, at)?,
                ) {
                    (Val::Reg(t, ty), Val::Reg(f, _)) => out.push(Inst::Select {
                        ty,
                        dst: self.dst(&x.dest),
                        cond,
                        t,
                        f,
                    }),
                    (Val::Agg(t, n), Val::Agg(f, _)) => out.push(Inst::SelectAgg {
                        dst: self.dst(&x.dest),
                        size: n,
                        cond,
                        t,
                        f,
                    }),
                    _ => return unsupported("select over vectors", at),
                }
            }
            I::Alloca(x) => {
                let elem_size = self.lw.lay.size(&x.allocated_type);
                let count = self.reg(&x.num_elements, at)?;
                let align = (x.alignment.max(1)).max(self.lw.lay.align(&x.allocated_type) as u32);
                out.push(Inst::Alloca {
                    dst: self.dst(&x.dest),
                    elem_size,
                    count,
                    align,
                });
            }
            I::Load(x) => {
                let addr = self.reg(&x.address, at)?;
                match self.vals[&x.dest] {
                    Val::Reg(dst, ty) => out.push(Inst::Load { dst, ty, addr }),
                    Val::Agg(dst, size) => out.push(Inst::LoadAgg { dst, size, addr }),
                }
            }
            I::Store(x) => {
                let addr = self.reg(&x.address, at)?;
                match self.operand(&x.value, at)? {
                    Val::Reg(val, ty) => out.push(Inst::Store { ty, addr, val }),
                    Val::Agg(val, size) => out.push(Inst::StoreAgg { size, addr, val }),
                }
            }
            I::GetElementPtr(x) => {
                let base = self.reg(&x.address, at)?;
                let mut offset: i64 = 0;
                let mut terms = vec![];
                let mut cur: TypeRef = x.source_element_type.clone();
                for (k, idx) in x.indices.iter().enumerate() {
                    let scale;
                    if k == 0 {
                        scale = self.lw.lay.size(&cur) as i64;
                    } else {
                        let resolved = self.lw.lay.resolve(cur.as_ref()).clone();
                        match &resolved {
                            Type::StructType {
                                element_types,
                                is_packed,
                            } => {
                                let fi = match idx.as_constant() {
                                    Some(Constant::Int { value, .. }) => *value as usize,
                                    _ => return unsupported("non-constant struct index", at),
                                };
                                let (offs, _) =
                                    self.lw.lay.struct_offsets(element_types, *is_packed);
                                offset += offs[fi] as i64;
                                cur = element_types[fi].clone();
                                continue;
                            }
                            Type::ArrayType { element_type, .. } => {
                                scale = self.lw.lay.size(element_type) as i64;
                                cur = element_type.clone();
                            }
                            t => return unsupported(format!("getelementptr into {t}"), at),
                        }
                    }
                    match idx.as_constant() {
                        Some(Constant::Int { bits, value }) => {
                            offset = offset.wrapping_add(sext(*value, *bits).wrapping_mul(scale))
                        }
                        _ => {
                            let w = self.int_w(idx, at)?;
                            let r = self.reg(idx, at)?;
                            terms.push((r, w, scale));
                        }
                    }
                }
                out.push(Inst::Gep {
                    dst: self.dst(&x.dest),
                    base,
                    offset,
                    terms,
                });
            }
            I::ExtractValue(x) => {
                let agg_ty = self.lw.m.types.type_of(&x.aggregate);
                let (off, _) = self
                    .lw
                    .lay
                    .member(unsafe { &*(agg_ty.as_ref() as *const Type) }, &x.indices);
                let agg = match self.operand(&x.aggregate, at)? {
                    Val::Agg(s, _) => s,
                    _ => return unsupported("extractvalue from a non-aggregate", at),
                };
                match self.vals[&x.dest] {
                    Val::Reg(dst, ty) => out.push(Inst::ExtractValue {
                        dst,
                        ty,
                        agg,
                        offset: off as u32,
                    }),
                    Val::Agg(dst, size) => out.push(Inst::ExtractAgg {
                        dst,
                        size,
                        agg,
                        offset: off as u32,
                    }),
                }
            }
            I::InsertValue(x) => {
                let agg_ty = self.lw.m.types.type_of(&x.aggregate);
                let (off, _) = self
                    .lw
                    .lay
                    .member(unsafe { &*(agg_ty.as_ref() as *const Type) }, &x.indices);
                let (agg, size) = match self.operand(&x.aggregate, at)? {
                    Val::Agg(s, n) => (s, n),
                    _ => return unsupported("insertvalue into a non-aggregate", at),
                };
                let val = self.operand(&x.element, at)?;
                out.push(Inst::InsertValue {
                    dst: self.dst(&x.dest),
                    size,
                    agg,
                    val,
                    offset: off as u32,
                });
            }
            I::Call(x) => self.call(x, out, loc, at)?,
            I::Fence(_) => {}
            other => {
                return unsupported(
                    format!("instruction `{}`", first_word(&other.to_string())),
                    at,
                );
            }
        }
        Ok(())
    }

    fn int_cast_op(&self, from: &Operand, to: &TypeRef) -> CastOp {
        let fw = self.ty_of(from).bits(self.lw.lay.dm);
        let tw = self
            .lw
            .lay
            .ty(to)
            .map(|t| t.bits(self.lw.lay.dm))
            .unwrap_or(64);
        if tw < fw {
            CastOp::Trunc
        } else if tw > fw {
            CastOp::ZExt
        } else {
            CastOp::Bits
        }
    }

    fn call(
        &mut self,
        x: &l::instruction::Call,
        out: &mut Vec<Inst>,
        loc: Loc,
        at: &str,
    ) -> Result<()> {
        let callee = match &x.function {
            // A call of an external function the interpreter stops at and the model checker
            // havocs over: the program loads, and its native runs execute the assembly.
            either::Either::Left(_) => {
                let rt = match x.function_ty.as_ref() {
                    Type::FuncType { result_type, .. } => result_type.clone(),
                    _ => self.lw.m.types.void(),
                };
                let ext = self.lw.extern_decl(super::INLINE_ASM, &rt, vec![], true);
                let site = self.lw.out.call_sites.len() as u32;
                self.lw.out.call_sites.push(loc);
                let ret = x.dest.as_ref().map(|d| self.vals[d]);
                out.push(Inst::CallExtern {
                    ext,
                    args: vec![],
                    ret,
                    site,
                });
                return Ok(());
            }
            either::Either::Right(op) => op,
        };
        let ret = match &x.dest {
            Some(d) => Some(self.vals[d]),
            None => None,
        };
        let mut args = vec![];
        for (a, _) in &x.arguments {
            if let Operand::MetadataOperand = a {
                continue;
            }
            args.push(self.operand(a, at)?);
        }
        let site = self.lw.out.call_sites.len() as u32;
        if let Operand::ConstantOperand(c) = callee
            && let Constant::GlobalReference { name, .. } = c.as_ref()
        {
            let name = name_str(name);
            if let Some(&fid) = self.lw.out.func_by_name.get(&name) {
                self.lw.out.call_sites.push(loc);
                out.push(Inst::Call {
                    callee: Callee::Func(fid),
                    args,
                    ret,
                    site,
                });
                return Ok(());
            }
            if name.starts_with("llvm.") {
                return self.intrinsic(&name, args, ret, out, at);
            }
            let (rt, pts, va) = match x.function_ty.as_ref() {
                Type::FuncType {
                    result_type,
                    param_types,
                    is_var_arg,
                } => (result_type.clone(), param_types.clone(), *is_var_arg),
                _ => (self.lw.m.types.void(), vec![], true),
            };
            let ext = self.lw.extern_decl(&name, &rt, pts, va);
            self.lw.out.call_sites.push(loc);
            out.push(Inst::CallExtern {
                ext,
                args,
                ret,
                site,
            });
            return Ok(());
        }
        let r = self.reg(callee, at)?;
        self.lw.out.call_sites.push(loc);
        out.push(Inst::Call {
            callee: Callee::Indirect(r),
            args,
            ret,
            site,
        });
        Ok(())
    }

    fn intrinsic(
        &mut self,
        name: &str,
        args: Vec<Val>,
        ret: Option<Val>,
        out: &mut Vec<Inst>,
        at: &str,
    ) -> Result<()> {
        let base = intrinsic_base(name);
        let regs: Vec<Reg> = args
            .iter()
            .filter_map(|a| {
                if let Val::Reg(r, _) = a {
                    Some(*r)
                } else {
                    None
                }
            })
            .collect();
        let ty = args.first().map(|a| a.ty()).unwrap_or(Ty::Void);
        let op = |o: IntrinsicOp| Some(o);
        let iop = match base.as_str() {
            "dbg.declare"
            | "dbg.value"
            | "dbg.label"
            | "dbg.assign"
            | "lifetime.start"
            | "lifetime.end"
            | "assume"
            | "va_end"
            | "stackrestore"
            | "experimental.noalias.scope.decl"
            | "invariant.start"
            | "invariant.end"
            | "sideeffect"
            | "prefetch"
            | "donothing" => None,
            "memcpy" | "memcpy.inline" => {
                out.push(Inst::MemCopy {
                    dst: regs[0],
                    src: regs[1],
                    len: regs[2],
                    overlapping: false,
                });
                return Ok(());
            }
            "memmove" => {
                out.push(Inst::MemCopy {
                    dst: regs[0],
                    src: regs[1],
                    len: regs[2],
                    overlapping: true,
                });
                return Ok(());
            }
            "memset" | "memset.inline" => {
                out.push(Inst::MemSet {
                    dst: regs[0],
                    byte: regs[1],
                    len: regs[2],
                });
                return Ok(());
            }
            "va_start" => {
                out.push(Inst::VaStart { list: regs[0] });
                return Ok(());
            }
            "va_copy" => {
                out.push(Inst::VaCopy {
                    dst: regs[0],
                    src: regs[1],
                });
                return Ok(());
            }
            "trap" | "debugtrap" | "ubsantrap" => {
                let ext = self
                    .lw
                    .extern_decl("abort", &self.lw.m.types.void(), vec![], false);
                let site = self.lw.out.call_sites.len() as u32;
                self.lw.out.call_sites.push(Loc::default());
                out.push(Inst::CallExtern {
                    ext,
                    args: vec![],
                    ret: None,
                    site,
                });
                return Ok(());
            }
            "stacksave" => {
                if let Some(Val::Reg(d, t)) = ret {
                    let z = self.const_reg(0);
                    out.push(Inst::Cast {
                        op: CastOp::Bits,
                        from: t,
                        to: t,
                        dst: d,
                        a: z,
                    });
                }
                return Ok(());
            }
            "objectsize" => {
                // Unknown size: -1 when asked for the maximum, 0 for the minimum.
                if let Some(Val::Reg(d, t)) = ret {
                    let min = args.get(1).map(|_| 0).unwrap_or(0);
                    let _ = min;
                    let v = self.const_reg(mask(u64::MAX, t.bits(self.lw.lay.dm)));
                    out.push(Inst::Cast {
                        op: CastOp::Bits,
                        from: t,
                        to: t,
                        dst: d,
                        a: v,
                    });
                }
                return Ok(());
            }
            "is.constant" => {
                if let Some(Val::Reg(d, t)) = ret {
                    let z = self.const_reg(0);
                    out.push(Inst::Cast {
                        op: CastOp::Bits,
                        from: t,
                        to: t,
                        dst: d,
                        a: z,
                    });
                }
                return Ok(());
            }
            "expect"
            | "expect.with.probability"
            | "ssa.copy"
            | "annotation"
            | "launder.invariant.group"
            | "strip.invariant.group" => op(IntrinsicOp::Copy),
            "smax" => op(IntrinsicOp::SMax),
            "smin" => op(IntrinsicOp::SMin),
            "umax" => op(IntrinsicOp::UMax),
            "umin" => op(IntrinsicOp::UMin),
            "abs" => op(IntrinsicOp::Abs),
            "ctpop" => op(IntrinsicOp::CtPop),
            "ctlz" => op(IntrinsicOp::Ctlz),
            "cttz" => op(IntrinsicOp::Cttz),
            "bswap" => op(IntrinsicOp::BSwap),
            "bitreverse" => op(IntrinsicOp::BitReverse),
            "fshl" => op(IntrinsicOp::Fshl),
            "fshr" => op(IntrinsicOp::Fshr),
            "sadd.with.overflow" => op(IntrinsicOp::SAddOv),
            "uadd.with.overflow" => op(IntrinsicOp::UAddOv),
            "ssub.with.overflow" => op(IntrinsicOp::SSubOv),
            "usub.with.overflow" => op(IntrinsicOp::USubOv),
            "smul.with.overflow" => op(IntrinsicOp::SMulOv),
            "umul.with.overflow" => op(IntrinsicOp::UMulOv),
            "sadd.sat" => op(IntrinsicOp::SAddSat),
            "uadd.sat" => op(IntrinsicOp::UAddSat),
            "ssub.sat" => op(IntrinsicOp::SSubSat),
            "usub.sat" => op(IntrinsicOp::USubSat),
            "fabs" => op(IntrinsicOp::FAbs),
            "floor" => op(IntrinsicOp::Floor),
            "ceil" => op(IntrinsicOp::Ceil),
            "trunc" => op(IntrinsicOp::Trunc),
            "round" => op(IntrinsicOp::Round),
            "roundeven" => op(IntrinsicOp::RoundEven),
            "rint" | "nearbyint" => op(IntrinsicOp::Rint),
            "sqrt" => op(IntrinsicOp::Sqrt),
            "copysign" => op(IntrinsicOp::CopySign),
            "fma" => op(IntrinsicOp::Fma),
            "fmuladd" => op(IntrinsicOp::FMulAdd),
            "is.fpclass" => op(IntrinsicOp::IsFpClass),
            "minnum" => op(IntrinsicOp::MinNum),
            "maxnum" => op(IntrinsicOp::MaxNum),
            "sin" => op(IntrinsicOp::Sin),
            "cos" => op(IntrinsicOp::Cos),
            "exp" => op(IntrinsicOp::Exp),
            "exp2" => op(IntrinsicOp::Exp2),
            "log" => op(IntrinsicOp::Log),
            "log2" => op(IntrinsicOp::Log2),
            "log10" => op(IntrinsicOp::Log10),
            "pow" => op(IntrinsicOp::Pow),
            _ => return unsupported(format!("intrinsic {name}"), at),
        };
        let Some(iop) = iop else { return Ok(()) };
        let Some(dst) = ret else { return Ok(()) };
        out.push(Inst::Intrinsic {
            op: iop,
            ty,
            dst,
            args: regs,
        });
        Ok(())
    }

    fn new_goal(&mut self, func: FuncId, block: BlockId, outcome: String, loc: Loc) -> GoalId {
        if self.in_runtime {
            return NO_GOAL;
        }
        let goals = &mut self.lw.out.branch_goals;
        goals.push(BranchGoal {
            func,
            block,
            outcome,
            loc,
            target_loc: Loc::default(),
        });
        (goals.len() - 1) as GoalId
    }

    fn edge(&self, from: BlockId, to: &Name, moves: &HashMap<(BlockId, BlockId), Moves>) -> Edge {
        let target = self.blocks[to];
        Edge {
            target,
            moves: moves.get(&(from, target)).cloned().unwrap_or_default(),
        }
    }

    fn term(
        &mut self,
        t: &l::Terminator,
        bi: BlockId,
        fid: FuncId,
        loc: Loc,
        moves: &HashMap<(BlockId, BlockId), Moves>,
        at: &str,
    ) -> Result<Terminator> {
        use l::Terminator as T;
        Ok(match t {
            T::Ret(r) => Terminator::Ret {
                val: match &r.return_operand {
                    Some(op) => Some(self.operand(op, at)?),
                    None => None,
                },
            },
            T::Br(b) => Terminator::Br {
                edge: self.edge(bi, &b.dest, moves),
            },
            T::CondBr(c) => {
                let cond = self.reg(&c.condition, at)?;
                let (t, f) = match swapped_by_clang(&c.true_dest, &c.false_dest) {
                    true => ("false", "true"),
                    false => ("true", "false"),
                };
                let then_goal = self.new_goal(fid, bi, t.into(), loc);
                let else_goal = self.new_goal(fid, bi, f.into(), loc);
                Terminator::CondBr {
                    cond,
                    then_edge: self.edge(bi, &c.true_dest, moves),
                    else_edge: self.edge(bi, &c.false_dest, moves),
                    then_goal,
                    else_goal,
                }
            }
            T::Switch(s) => {
                let w = self.int_w(&s.operand, at)?;
                let val = self.reg(&s.operand, at)?;
                let mut cases = vec![];
                for (c, dest) in &s.dests {
                    let v = self.lw.const_scalar(c, at)?;
                    let g = self.new_goal(fid, bi, format!("case {}", sext(v, w as u32)), loc);
                    cases.push((v, self.edge(bi, dest, moves), g));
                }
                let default_goal = self.new_goal(fid, bi, "default".into(), loc);
                Terminator::Switch {
                    val,
                    w,
                    cases,
                    default: self.edge(bi, &s.default_dest, moves),
                    default_goal,
                }
            }
            T::Unreachable(_) => Terminator::Unreachable,
            other => {
                return unsupported(
                    format!("terminator `{}`", first_word(&other.to_string())),
                    at,
                );
            }
        })
    }
}

fn first_word(s: &str) -> String {
    let s = s.trim();
    let s = match s.find(" = ") {
        Some(i) => &s[i + 3..],
        None => s,
    };
    s.split_whitespace().next().unwrap_or(s).to_string()
}

/// `llvm.sadd.with.overflow.i32` → `sadd.with.overflow`: drops the overloaded type suffixes.
fn intrinsic_base(name: &str) -> String {
    let is_type = |p: &str| {
        let (head, rest) = p.split_at(1.min(p.len()));
        (matches!(head, "i" | "f" | "p" | "v")
            && !rest.is_empty()
            && rest.chars().next().is_some_and(|c| c.is_ascii_digit()))
            || matches!(p, "bf16" | "ppcf128" | "x86_fp80")
    };
    name.trim_start_matches("llvm.")
        .split('.')
        .take_while(|p| !is_type(p))
        .collect::<Vec<_>>()
        .join(".")
}

/// Whether clang compiled a condition with its targets swapped: `if (!p)` is `br i1 %p,
/// label %if.end, label %if.then`. A goal's `true` is then the false edge, so that `true`
/// means what the source says at the goal's column (the `if` taken, the `&&`'s left operand
/// true, the `?:`'s first arm), read from the names clang gives the targets.
fn swapped_by_clang(true_dest: &Name, false_dest: &Name) -> bool {
    // The side of the source condition a target block stands for, by clang's block names.
    let side = |n: &Name| {
        let Name::Name(s) = n else { return None };
        match s.trim_end_matches(|c: char| c.is_ascii_digit()) {
            "if.then" | "land.lhs.true" | "land.rhs" | "lor.end" | "cond.true" | "while.body"
            | "for.body" | "do.body" => Some(true),
            "if.else" | "if.end" | "lor.lhs.false" | "lor.rhs" | "land.end" | "cond.false"
            | "while.end" | "for.end" | "do.end" => Some(false),
            _ => None,
        }
    };
    side(true_dest) == Some(false) && side(false_dest) == Some(true)
}
