//! Rigid transforms the 3D conversions share: quaternions (normalising, products, axis-angle,
//! from a rotation matrix, a look-at rotation) and the split of an affine matrix into
//! translation, rotation and scale ([`decompose`]), or, with shear, into two rotations around a
//! scale ([`svd_split`]). Matrices are column-major `[f64; 16]` as in [`super::Node`]; quaternions
//! are `[x, y, z, w]`.

use super::vec3::{cross, dot, scale, unit};

pub(crate) fn unit_quat(q: [f64; 4]) -> [f64; 4] {
    let len = q.iter().map(|v| v * v).sum::<f64>().sqrt();
    if len.is_finite() && len > 0.0 {
        q.map(|v| v / len)
    } else {
        [0.0, 0.0, 0.0, 1.0]
    }
}

/// Hamilton product `a * b` of `[x, y, z, w]` quaternions (`b` applied first).
pub(crate) fn quat_mul(a: [f64; 4], b: [f64; 4]) -> [f64; 4] {
    let [ax, ay, az, aw] = a;
    let [bx, by, bz, bw] = b;
    [
        aw * bx + ax * bw + ay * bz - az * by,
        aw * by - ax * bz + ay * bw + az * bx,
        aw * bz + ax * by - ay * bx + az * bw,
        aw * bw - ax * bx - ay * by - az * bz,
    ]
}

pub(crate) fn axis_angle(axis: [f64; 3], angle: f64) -> [f64; 4] {
    let (s, c) = (angle / 2.0).sin_cos();
    [axis[0] * s, axis[1] * s, axis[2] * s, c]
}

/// Quaternion of a rotation matrix given row-major (`m[row][col]`).
pub(crate) fn quat_from_rows(m: [[f64; 3]; 3]) -> [f64; 4] {
    let [[m00, m01, m02], [m10, m11, m12], [m20, m21, m22]] = m;
    let trace = m00 + m11 + m22;
    let q = if trace > 0.0 {
        let s = (trace + 1.0).sqrt() * 2.0;
        [(m21 - m12) / s, (m02 - m20) / s, (m10 - m01) / s, s / 4.0]
    } else if m00 > m11 && m00 > m22 {
        let s = (1.0 + m00 - m11 - m22).sqrt() * 2.0;
        [s / 4.0, (m01 + m10) / s, (m02 + m20) / s, (m21 - m12) / s]
    } else if m11 > m22 {
        let s = (1.0 + m11 - m00 - m22).sqrt() * 2.0;
        [(m01 + m10) / s, s / 4.0, (m12 + m21) / s, (m02 - m20) / s]
    } else {
        let s = (1.0 + m22 - m00 - m11).sqrt() * 2.0;
        [(m02 + m20) / s, (m12 + m21) / s, s / 4.0, (m10 - m01) / s]
    };
    unit_quat(q)
}

/// The upper 3x3 of a column-major matrix, row-major.
pub(crate) fn linear_part(m: &[f64; 16]) -> [[f64; 3]; 3] {
    [[m[0], m[4], m[8]], [m[1], m[5], m[9]], [m[2], m[6], m[10]]]
}

/// Translation, rotation and scale of an affine matrix, when it has no shear (a mirroring
/// becomes a negative x scale) and no zero scale.
pub(crate) fn decompose(m: &[f64; 16]) -> Option<([f64; 3], [f64; 4], [f64; 3])> {
    let cols = [[m[0], m[1], m[2]], [m[4], m[5], m[6]], [m[8], m[9], m[10]]];
    let mut s = cols.map(|c| dot(c, c).sqrt());
    if s.iter().any(|&v| !(v > 1e-12 && v.is_finite())) {
        return None;
    }
    if dot(cols[0], cross(cols[1], cols[2])) < 0.0 {
        s[0] = -s[0];
    }
    let r = [
        cols[0].map(|v| v / s[0]),
        cols[1].map(|v| v / s[1]),
        cols[2].map(|v| v / s[2]),
    ];
    for i in 0..3 {
        for j in 0..3 {
            let want = if i == j { 1.0 } else { 0.0 };
            if (dot(r[i], r[j]) - want).abs() > 1e-6 {
                return None;
            }
        }
    }
    // r holds the columns; quat_from_rows wants rows.
    let rows = [
        [r[0][0], r[1][0], r[2][0]],
        [r[0][1], r[1][1], r[2][1]],
        [r[0][2], r[1][2], r[2][2]],
    ];
    Some(([m[12], m[13], m[14]], quat_from_rows(rows), s))
}

/// Inverse of an affine matrix (column-major, last row `0 0 0 1`), `None` when it is singular.
pub(crate) fn affine_inverse(m: &[f64; 16]) -> Option<[f64; 16]> {
    let a = linear_part(m);
    let det = dot(a[0], cross(a[1], a[2]));
    if !(det.abs() > 1e-300 && det.is_finite()) {
        return None;
    }
    // The inverse's rows are the cross products of the columns, over the determinant.
    let cols = [
        [a[0][0], a[1][0], a[2][0]],
        [a[0][1], a[1][1], a[2][1]],
        [a[0][2], a[1][2], a[2][2]],
    ];
    let rows = [
        cross(cols[1], cols[2]).map(|v| v / det),
        cross(cols[2], cols[0]).map(|v| v / det),
        cross(cols[0], cols[1]).map(|v| v / det),
    ];
    let t = [m[12], m[13], m[14]];
    let it = rows.map(|r| -dot(r, t));
    Some([
        rows[0][0], rows[1][0], rows[2][0], 0.0, rows[0][1], rows[1][1], rows[2][1], 0.0,
        rows[0][2], rows[1][2], rows[2][2], 0.0, it[0], it[1], it[2], 1.0,
    ])
}

/// Translation, rotation `U`, scale `S` and rotation `V^T` of [`svd_split`].
pub(crate) type SvdSplit = ([f64; 3], [f64; 4], [f64; 3], [f64; 4]);

/// `M = T * U * S * V^T` for an affine matrix with shear or zero scale (singular value
/// decomposition through a Jacobi eigen-decomposition of `A^T A`): translation, rotation `U`,
/// scale `S` (negative on z for a mirroring) and rotation `V^T`. `None` if the result does not
/// reproduce `M`.
pub(crate) fn svd_split(m: &[f64; 16]) -> Option<SvdSplit> {
    let a = linear_part(m);
    let mut ata = [[0.0; 3]; 3];
    for (i, row) in ata.iter_mut().enumerate() {
        for (j, v) in row.iter_mut().enumerate() {
            *v = (0..3).map(|k| a[k][i] * a[k][j]).sum();
        }
    }
    let (eig, v) = jacobi_eigen(ata);
    let mut order = [0usize, 1, 2];
    order.sort_by(|&x, &y| eig[y].total_cmp(&eig[x]));
    let col = |k: usize| [v[0][k], v[1][k], v[2][k]];
    let mut vs = order.map(col);
    let mut sigma = order.map(|k| eig[k].max(0.0).sqrt());
    if dot(vs[0], cross(vs[1], vs[2])) < 0.0 {
        vs[2] = vs[2].map(|x| -x);
    }
    let apply = |x: [f64; 3]| -> [f64; 3] { [dot(a[0], x), dot(a[1], x), dot(a[2], x)] };
    let tiny = 1e-12 * sigma[0].max(1e-300);
    let u0 = if sigma[0] > tiny {
        apply(vs[0]).map(|x| x / sigma[0])
    } else {
        [1.0, 0.0, 0.0]
    };
    let u1 = if sigma[1] > tiny {
        apply(vs[1]).map(|x| x / sigma[1])
    } else {
        let helper = if u0[0].abs() < 0.9 {
            [1.0, 0.0, 0.0]
        } else {
            [0.0, 1.0, 0.0]
        };
        unit(cross(u0, helper))?
    };
    let mut u2 = if sigma[2] > tiny {
        apply(vs[2]).map(|x| x / sigma[2])
    } else {
        unit(cross(u0, u1))?
    };
    if dot(u0, cross(u1, u2)) < 0.0 {
        u2 = u2.map(|x| -x);
        sigma[2] = -sigma[2];
    }
    // U's columns are u0, u1, u2; V^T's rows are vs[0..3].
    let u_rows = [
        [u0[0], u1[0], u2[0]],
        [u0[1], u1[1], u2[1]],
        [u0[2], u1[2], u2[2]],
    ];
    let vt_rows = vs;
    // Check U * S * V^T == A.
    let scale = a
        .iter()
        .flatten()
        .fold(0.0f64, |acc, v| acc.max(v.abs()))
        .max(1e-300);
    for (r, row) in a.iter().enumerate() {
        for (c, want) in row.iter().enumerate() {
            let got: f64 = (0..3)
                .map(|k| u_rows[r][k] * sigma[k] * vt_rows[k][c])
                .sum();
            if (got - want).abs() > 1e-9 * scale || got.is_nan() {
                return None;
            }
        }
    }
    Some((
        [m[12], m[13], m[14]],
        quat_from_rows(u_rows),
        sigma,
        quat_from_rows(vt_rows),
    ))
}

/// Eigenvalues and eigenvectors (columns of the second result) of a symmetric 3x3 matrix, by
/// cyclic Jacobi rotations.
pub(crate) fn jacobi_eigen(mut a: [[f64; 3]; 3]) -> ([f64; 3], [[f64; 3]; 3]) {
    let mut v = [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]];
    let norm: f64 = a.iter().flatten().map(|x| x * x).sum();
    for _ in 0..64 {
        let off = a[0][1] * a[0][1] + a[0][2] * a[0][2] + a[1][2] * a[1][2];
        if off <= 1e-36 * norm || off.is_nan() {
            break;
        }
        for (p, q) in [(0, 1), (0, 2), (1, 2)] {
            if a[p][q] == 0.0 {
                continue;
            }
            let theta = (a[q][q] - a[p][p]) / (2.0 * a[p][q]);
            let t = theta.signum() / (theta.abs() + (theta * theta + 1.0).sqrt());
            let c = 1.0 / (t * t + 1.0).sqrt();
            let s = t * c;
            for row in a.iter_mut() {
                let (kp, kq) = (row[p], row[q]);
                row[p] = c * kp - s * kq;
                row[q] = s * kp + c * kq;
            }
            let (row_p, row_q) = (a[p], a[q]);
            a[p] = [0, 1, 2].map(|k| c * row_p[k] - s * row_q[k]);
            a[q] = [0, 1, 2].map(|k| s * row_p[k] + c * row_q[k]);
            for row in v.iter_mut() {
                let (kp, kq) = (row[p], row[q]);
                row[p] = c * kp - s * kq;
                row[q] = s * kp + c * kq;
            }
        }
    }
    ([a[0][0], a[1][1], a[2][2]], v)
}

/// The rotation that turns a node's -z axis to `forward` with its +y axis towards `up` (as a
/// camera or a spot light looks), as a quaternion; the identity when `forward` is zero.
pub(crate) fn look_rotation(forward: [f64; 3], up: [f64; 3]) -> [f64; 4] {
    let Some(f) = unit(forward) else {
        return [0.0, 0.0, 0.0, 1.0];
    };
    let z = scale(f, -1.0);
    let x = unit(cross(up, z))
        .or_else(|| unit(cross([1.0, 0.0, 0.0], z)))
        .unwrap_or([1.0, 0.0, 0.0]);
    let y = cross(z, x);
    // The rotation matrix has columns x, y, z.
    quat_from_rows([[x[0], y[0], z[0]], [x[1], y[1], z[1]], [x[2], y[2], z[2]]])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::Transform;

    fn mat_close(a: &[f64; 16], b: &[f64; 16]) -> bool {
        a.iter().zip(b).all(|(x, y)| (x - y).abs() < 1e-9)
    }

    #[test]
    fn decompose_reproduces_trs_and_mirrors() {
        let t = Transform::Trs {
            translation: [1.0, 2.0, 3.0],
            rotation: unit_quat([0.1, 0.7, -0.2, 0.6]),
            scale: [2.0, -0.5, 3.0],
        };
        let m = t.matrix();
        let Some((tr, r, s)) = decompose(&m) else {
            panic!("not decomposed");
        };
        let back = Transform::Trs {
            translation: tr,
            rotation: r,
            scale: s,
        }
        .matrix();
        assert!(mat_close(&m, &back), "{m:?} vs {back:?}");
    }

    #[test]
    fn svd_split_reproduces_shear() {
        let shear = [
            1.0, 0.0, 0.0, 0.0, 0.5, 1.0, 0.0, 0.0, 0.0, 0.3, 2.0, 0.0, 4.0, 5.0, 6.0, 1.0,
        ];
        assert!(decompose(&shear).is_none());
        let Some((t, u, s, vt)) = svd_split(&shear) else {
            panic!("no split");
        };
        let outer = Transform::Trs {
            translation: t,
            rotation: u,
            scale: s,
        }
        .matrix();
        let inner = Transform::Trs {
            translation: [0.0; 3],
            rotation: vt,
            scale: [1.0; 3],
        }
        .matrix();
        let back = crate::scene::mat_mul(&outer, &inner);
        assert!(mat_close(&shear, &back), "{shear:?} vs {back:?}");
        // Mirrored shear and a singular matrix.
        let mut mirrored = shear;
        mirrored[0] = -1.0;
        let Some((t, u, s, vt)) = svd_split(&mirrored) else {
            panic!("no split");
        };
        let back = crate::scene::mat_mul(
            &Transform::Trs {
                translation: t,
                rotation: u,
                scale: s,
            }
            .matrix(),
            &Transform::Trs {
                translation: [0.0; 3],
                rotation: vt,
                scale: [1.0; 3],
            }
            .matrix(),
        );
        assert!(mat_close(&mirrored, &back));
        let flat = [
            1.0, 0.0, 0.0, 0.0, 0.5, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0,
        ];
        assert!(svd_split(&flat).is_some());
    }
}
