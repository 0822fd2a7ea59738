! SPDX-License-Identifier: MIT
! libpmu's LIKWID marker layer for Fortran: the module LIKWID's users "use likwid" from, declaring
! the marker subroutines, which libpmu-likwid implements (marker.c). Compiled to likwid.mod for the
! gfortran that builds libpmu (a .mod file is read by that compiler's version only).
module likwid
    interface
        subroutine likwid_markerInit()
        end subroutine likwid_markerInit
        subroutine likwid_markerThreadInit()
        end subroutine likwid_markerThreadInit
        subroutine likwid_markerNextGroup()
        end subroutine likwid_markerNextGroup
        subroutine likwid_markerClose()
        end subroutine likwid_markerClose
        subroutine likwid_markerRegisterRegion(regionTag)
            character(*) :: regionTag
        end subroutine likwid_markerRegisterRegion
        subroutine likwid_markerStartRegion(regionTag)
            character(*) :: regionTag
        end subroutine likwid_markerStartRegion
        subroutine likwid_markerStopRegion(regionTag)
            character(*) :: regionTag
        end subroutine likwid_markerStopRegion
        subroutine likwid_markerResetRegion(regionTag)
            character(*) :: regionTag
        end subroutine likwid_markerResetRegion
        subroutine likwid_markerGetRegion(regionTag, nr_events, events, time, count)
            character(*) :: regionTag
            integer :: nr_events
            double precision, dimension(*) :: events
            double precision :: time
            integer :: count
        end subroutine likwid_markerGetRegion
    end interface
end module likwid
