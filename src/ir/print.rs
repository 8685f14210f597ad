//! Human-readable dump of Cairn IR (`cairn ir FILE.c`).

use super::*;
use std::fmt::Write;

pub fn print_module(m: &Module) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "; data model {:?}, {} functions, {} globals, {} branch goals",
        m.data_model,
        m.functions.len(),
        m.globals.len(),
        m.branch_goals.len()
    );
    for g in &m.globals {
        let _ = writeln!(
            s,
            "global @{} at {:#x} size {} align {}{}",
            g.name,
            g.addr,
            g.size,
            g.align,
            if g.read_only { " const" } else { "" }
        );
    }
    for (i, e) in m.externs.iter().enumerate() {
        let _ = writeln!(
            s,
            "extern #{i} {}({:?}{}) -> {:?}",
            e.name,
            e.params,
            if e.is_var_arg { ", ..." } else { "" },
            e.ret
        );
    }
    for f in &m.functions {
        let _ = writeln!(
            s,
            "\nfn {} #{} params {:?} -> {:?}  ({} regs, {} agg bytes)  ; {}",
            f.name,
            f.id,
            f.params,
            f.ret,
            f.num_regs,
            f.agg_init.len(),
            m.loc_string(f.loc)
        );
        let consts: Vec<String> = f
            .reg_init
            .iter()
            .enumerate()
            .filter(|(_, v)| **v != 0)
            .map(|(i, v)| format!("r{i}={v:#x}"))
            .collect();
        if !consts.is_empty() {
            let _ = writeln!(s, "  consts {}", consts.join(" "));
        }
        for (bi, b) in f.blocks.iter().enumerate() {
            let _ = writeln!(s, " b{bi} ({}):", b.name);
            for (i, l) in b.insts.iter().zip(&b.locs) {
                let _ = writeln!(s, "    {:<70} ; {}:{}", format!("{i:?}"), l.line, l.col);
            }
            let _ = writeln!(
                s,
                "    {:<70} ; {}:{}",
                format!("{:?}", b.term),
                b.term_loc.line,
                b.term_loc.col
            );
        }
    }
    s
}
